"""Players' names in the ROM's letters (issue 52 item 9): `--review` of a match between
"José Müller" and "Zoë Straße" shows Jose Muller and Zoe Strasse on every page that names
them (the list, the summary, the move pages, the dice pages), and the .sgf that X writes
keeps the real names. Bad names: 200 characters, control characters, right-to-left
letters: drawn cut and in '?', never as control codes, and no line runs past its row."""
import pytest

from game.board import lines
from game.board import screen as S
from game.matchfiles.imports import import_text
from game.matchfiles.sgf import format_sgf
from game.pages.import_pages import review_program
from game.zx.basic import Basic
from gamedriver import RoutineDriver
from scripted_matches import scripted_match

LEVEL = 1


def imported_with(names):
    m = scripted_match(3, 4, double_rate=0.5, max_games=2)
    m.record.names.update(dict(zip(("human", "computer"), names, strict=True)))
    return import_text(format_sgf(m.record), "club.sgf")


def review(imported, export_dir=None):
    # the names are the point here, not the checks: a QUICK review (checked=False) draws the
    # same pages without a 3-ply search and a rollout of each cube action
    return RoutineDriver(lambda basic: review_program(basic, imported, export_dir, level=LEVEL,
                                                      checked=False))


def test_rom_text_spells_letters_outside_the_rom_as_their_nearest_ascii():
    assert lines.rom_text("José Müller") == "Jose Muller"
    assert lines.rom_text("Zoë Straße, Ærø, Łódź") == "Zoe Strasse, AEro, Lodz"
    assert lines.rom_text("\x16\x01\x02Bo\x07") == "???Bo?"        # never AT, INK...
    assert lines.rom_text("שלום") == "????"
    assert lines.rom_text("Ｂｏ ﬁ") == "Bo fi"


def test_a_review_of_jose_muller_shows_jose_muller_and_the_sgf_keeps_the_real_names(tmp_path):
    d = review(imported_with(("José Müller", "Zoë Straße")), tmp_path)
    d.until("Game (1-")
    text = "\n".join(d.text())
    assert "Jose Muller v Zoe Strasse" in text.splitlines()[3]
    d.type("1\n")
    d.until("REVIEW OF GAME 1", row=0, max_frames=20000)
    text = "\n".join(d.text())
    assert "Jose Mul" in text and "Zoe Stra" in text
    d.type("x")
    d.until(".sgf/.mat")
    written = next(tmp_path.glob("*.sgf")).read_text(encoding="utf-8")
    assert "PW[José Müller]" in written or "PB[José Müller]" in written
    mat = next(tmp_path.glob("*.mat")).read_text(encoding="utf-8")
    assert "José" in mat and "Müller" in mat
    d.type("\n")
    d.until(":", row=S.BOTTOM_FIRST_ROW - 1)
    assert any(name in d.text()[S.BOTTOM_FIRST_ROW - 1] for name in ("Jose Mul", "Zoe Stra"))


@pytest.mark.parametrize("names", [("A" * 200, "B" * 199 + "é"), ("\x16\x01\x10", "Bo"),
                                   ("Bo", "\x7f\x1b[31m"), ("שלום עליכם", "مرحبا")])
def test_bad_names_are_drawn_cut_and_in_rom_letters_never_past_the_row(names, monkeypatch):
    over = []
    real_print_at = Basic.print_at

    def print_at(self, row, col, text, *args, **kwargs):
        drawn = lines.rom_text(text)
        if col + len(drawn.rstrip()) > S.COLS or any(ord(c) < 32 for c in drawn):
            over.append(text)
        return real_print_at(self, row, col, text, *args, **kwargs)
    monkeypatch.setattr(Basic, "print_at", print_at)
    d = review(imported_with(names))
    d.until("REVIEW A MATCH", row=0)
    d.run(5)
    if "Stopped at line" in "\n".join(d.text()):     # the reader refused the file, in words
        assert over == [] and "binary data" in "\n".join(d.text())
        return
    d.until("Game (1-")
    d.type("1\n")
    d.until("REVIEW OF GAME 1", row=0, max_frames=20000)
    d.type("\n")
    d.until(":", row=S.BOTTOM_FIRST_ROW - 1)
    assert over == []
