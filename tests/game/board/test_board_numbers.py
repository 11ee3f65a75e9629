"""The match score and both pip counts on the board (issue 52 item 10): the pips between
the two halves are the engine's (bg_pips) for any position, the score of a match sits in
the panel's free row, money play shows none, and the option OFF gives the 1983 board back
cell for cell. Drawn on the stand-in machine through the ROM, read back as text."""
import random

from game.board import numbers
from game.board import screen as S
from game.files.settings import OPTIONS, Settings
from game.model.position import Position
from gamedriver import RoutineDriver


def drawn(position, names=("You", "I", None), shown=True, mirrored=False):
    """A board drawn on the stand-in: (the screen's text, its memory)."""
    result = {}

    def draw(basic):
        screen = S.Screen(basic.memory, basic.print_at, mirrored=mirrored)
        screen.numbers, screen.numbers_shown = names, shown
        screen.draw_board(S.view_of(position))
        result["screen"] = screen
        yield
    driver = RoutineDriver(draw)
    return driver.text(), bytes(driver.machine.memory[0x4000:0x5B00]), result["screen"]


def random_position(rng):
    """A legal position: each side's 15 men on the board, the bar or off."""
    mine, theirs = {}, {}
    for men, taken in ((mine, theirs), (theirs, mine)):
        for _ in range(rng.randint(0, 15)):
            point = rng.choice([p for p in range(1, 26)
                                if not (p < 25 and taken.get(25 - p, 0) > 0)])
            men[point] = men.get(point, 0) + 1
    for men in (mine, theirs):
        if 25 in men:
            men["bar"] = men.pop(25)
    return Position.from_points(mine, theirs)


def test_the_pips_between_the_halves_are_the_engines_for_any_position():
    rng = random.Random(52)
    for _ in range(12):
        position = random_position(rng)
        text, _memory, _screen = drawn(position)
        mine, theirs = position.pips()
        row = text[numbers.PIPS_ROW]
        assert f"You {mine} pips" in row and f"I {theirs} pips" in row, (row, mine, theirs)


def test_a_match_score_sits_in_the_panel_and_money_play_shows_none():
    start = Position.start()
    text, _memory, _screen = drawn(start, ("You", "I", (2, 4)))
    assert text[numbers.SCORE_ROW][numbers.SCORE_COL:].strip() == "2-4"
    assert text[numbers.PIPS_ROW].count("167 pips") == 2
    money, _memory, _screen = drawn(start, ("You", "I", None))
    assert money[numbers.SCORE_ROW][numbers.SCORE_COL:].strip() == ""
    wide, _memory, _screen = drawn(start, ("You", "I", (24, 18)))
    assert wide[numbers.SCORE_ROW][numbers.SCORE_COL:].strip() == "24-18"


def test_long_names_keep_their_numbers_within_their_half():
    for names in (("White", "Black", (0, 0)), ("Alexandrina", "Bo", (1, 0))):
        text, _memory, _screen = drawn(Position.start(), names)
        left, right = text[numbers.PIPS_ROW][1:13], text[numbers.PIPS_ROW][15:27]
        assert "167" in left and "167" in right and names[1][:5] in right


def test_off_is_the_1983_board_cell_for_cell():
    """The option OFF: the board's memory equals one drawn with no numbers at all (the
    gap and panel cells as the board fills them), also mirrored."""
    position = Position.from_points({6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2})
    for mirrored in (False, True):
        _text, off, _screen = drawn(position, ("You", "I", (1, 2)), shown=False, mirrored=mirrored)
        _text, on, _screen = drawn(position, ("You", "I", (1, 2)), shown=True, mirrored=mirrored)
        assert off != on
        text, _memory, _screen = drawn(position, ("You", "I", (1, 2)), shown=False,
                                       mirrored=mirrored)
        assert text[numbers.PIPS_ROW][1:27].replace(" ", "").strip() == \
            text[numbers.PIPS_ROW][13:15].strip()        # only the bar's cells, no words
        assert text[numbers.SCORE_ROW].strip() == ""


def test_the_option_is_in_the_menu_and_reaches_the_screen():
    assert ("score_pips", "Score & pips", (True, False)) in OPTIONS
    settings = Settings()
    settings.cycle("score_pips")
    screen = S.Screen(bytearray(65536), lambda *args: None)
    screen.apply_settings(settings)
    assert screen.numbers_shown is False
    assert Settings.from_dict({"score_pips": False}).score_pips is False
