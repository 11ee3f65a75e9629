"""The maps stay true to the tree: every file or folder of the repository that README.md and
docs/*.md name by path (game/zx/basic.py, scenes/keys.py, native/src/) is there."""
import re

from repo import REPO

TOPS = ("game", "spectrum", "roms", "native", "bench", "tests", "docs")
PATH = re.compile(r"(?<![\w./-])((?:" + "|".join(TOPS) + r"|scenes)/[\w./*-]*[\w*/])")


def named_paths(text: str) -> set:
    return {match.rstrip(".") for match in PATH.findall(text)}


def test_every_path_the_docs_name_is_in_the_repository():
    missing = []
    for doc in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        for path in sorted(named_paths(doc.read_text())):
            where = "game/" + path if path.startswith("scenes/") else path
            if not list(REPO.glob(where.rstrip("/"))):
                missing.append(f"{doc.relative_to(REPO)}: {path}")
    assert missing == []


def test_a_path_is_read_whole_and_only_inside_the_repository():
    text = "see `game/zx/basic.py`, game/zx/mcode.* and ../shared/z80-tests; scenes/keys.py."
    assert named_paths(text) == {"game/zx/basic.py", "game/zx/mcode.*", "scenes/keys.py"}
