"""docs/INLAY.md, the inlay card set against the port, stays true: every test it names
(`tests/...py::test_name`) exists and is collected by pytest, every rule 1-8 of the card names
at least one, and every screenshot it shows is in docs/."""
import re
import subprocess
import sys

from repo import REPO

DOC = REPO / "docs" / "INLAY.md"
NAMED = re.compile(r"`(tests/[\w/]+\.py)::(test_\w+)`")
RULE = re.compile(r"^### Rule (\d)\b", re.M)
PICTURE = re.compile(r"\]\(([\w-]+\.png)\)")


def named_tests(text: str) -> list[tuple[str, str]]:
    return NAMED.findall(text)


def test_every_rule_one_to_eight_names_at_least_one_test():
    text = DOC.read_text()
    rules = RULE.split(text)[1:]                 # number, its section, number, ...
    sections = dict(zip(rules[::2], rules[1::2], strict=True))
    assert sorted(sections) == [str(n) for n in range(1, 9)]
    bare = [n for n, section in sections.items() if not named_tests(section)]
    assert bare == []


def test_every_test_the_page_names_is_collected():
    named = named_tests(DOC.read_text())
    files = sorted({path for path, _ in named})
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-n", "0",
                          "-p", "no:cacheprovider", *files], cwd=REPO, capture_output=True,
                         text=True, timeout=300)
    collected = {line.split("[")[0] for line in out.stdout.splitlines() if "::" in line}
    missing = sorted(f"{path}::{name}" for path, name in named
                     if f"{path}::{name}" not in collected)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert missing == []


def test_every_screenshot_the_page_shows_is_in_docs():
    pictures = set(PICTURE.findall(DOC.read_text()))
    assert {"inlay-opening.png", "inlay-illegal.png", "inlay-forfeit.png",
            "inlay-bearoff.png", "inlay-quit.png"} <= pictures
    assert sorted(p for p in pictures if not (REPO / "docs" / p).is_file()) == []


def test_a_named_test_is_read_with_its_file():
    text = "see `tests/game/x.py::test_rule1_a` and tests/y.py::test_b, `tests/z.py`"
    assert named_tests(text) == [("tests/game/x.py", "test_rule1_a")]
