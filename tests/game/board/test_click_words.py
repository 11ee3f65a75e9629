"""The mouse beyond "Your move?" (issue 52 item 3): a key word on any line of the screen types
its key (a key with its words, keys joined by "/" each on their own letters, never the
computer's "I"), read back through the machine's font; the cube and the dice are found where
they are drawn, mirrored or not, and type only what the waiting scene says."""
from types import SimpleNamespace

import pytest

import roms
from game.board import clicks
from game.board import screen as S
from game.main import Runner
from spectrum.hw import SCREEN_ADDR
from spectrum.screen_text import CHARS_SYSVAR, line_text

FONT_ADDR = 0x3D00                          # the ROM's 96 glyphs, CHARS = FONT_ADDR - 256


def spots(line: str) -> dict:
    """What each key word of `line` covers: {typed: the text under it}."""
    return {key: line[first:past] for first, past, key in clicks.hot_keys(line)}


@pytest.mark.parametrize("line, expected", [
    ("I double to 2. Take? (Y/N)", {"y": "Y", "n": "N"}),
    ("Y or N? I double to 2. Take?", {"y": "Y or", "n": "N? I double to 2. Take?"}),
    ("You: ENTER rolls, D doubles", {"\n": "ENTER rolls,", "d": "D doubles"}),
    ("ENTER: moves  X: .sgf  Q: end", {"\n": "ENTER: moves", "x": "X: .sgf", "q": "Q: end"}),
    ("T/U: take it back  ENTER: keep", {"t": "T", "u": "U", "\n": "ENTER: keep"}),
    ("ENTER next B back C all S sums Q",
     {"\n": "ENTER next", "b": "B back", "c": "C all", "s": "S sums", "q": "Q"}),
    ("ENTER/0 1 2 start T cut Q back",
     {"\n": "ENTER", "0": "0", "1": "1", "2": "2 start", "t": "T cut", "q": "Q back"}),
    ("4 Speed          EACH STEP", {"4": "4 Speed"}),
    ("E Cube stop      ALWAYS", {"e": "E Cube stop"}),
    ("I play h3 f1            D doubles", {"d": "D doubles"}),
    ("Press any key for a new game", {}),
    (" l k j i h g   f e d c b a", {}),
    ("1 Level          5", {"1": "1 Level"}),          # the value is no key
])
def test_key_words_of_a_line(line, expected):
    assert spots(line) == expected


def screen_with(lines: dict) -> bytearray:
    """64K with the ROM's font where CHARS points and `lines` ({row: text}) printed."""
    memory = bytearray(65536)
    rom = roms.load_rom()
    memory[FONT_ADDR:FONT_ADDR + 768] = rom[FONT_ADDR:FONT_ADDR + 768]
    chars = FONT_ADDR - 256
    memory[CHARS_SYSVAR], memory[CHARS_SYSVAR + 1] = chars & 0xFF, chars >> 8
    for row, text in lines.items():
        for col, ch in enumerate(text):
            glyph = memory[FONT_ADDR + 8 * (ord(ch) - 32):FONT_ADDR + 8 * (ord(ch) - 31)]
            base = SCREEN_ADDR | (row & 0x18) << 8 | (row & 7) << 5 | col
            for pixel_row in range(8):
                memory[base + 256 * pixel_row] = glyph[pixel_row] ^ (0xFF if row == 3 else 0)
    return memory


def test_a_long_question_keeps_its_answers_on_the_line():
    from game.pages import menus
    from gamedriver import RoutineDriver
    driver = RoutineDriver(lambda b: menus.ask_yes_no(b, "Resume the saved game " * 3))
    driver.run(2)
    line = driver.text()[S.MESSAGE_ROW]
    assert line.rstrip().endswith("(Y/N)") and spots(line) == {"y": "Y", "n": "N"}


def test_a_click_on_a_key_word_types_its_key_read_through_the_font():
    memory = screen_with({23: "I double to 2. Take? (Y/N)", 3: "S Set up your own board"})
    assert line_text(memory, 23).startswith("I double to 2. Take? (Y/N)")
    assert clicks.text_key_at(memory, 22 * 8 + 3, 23 * 8 + 4) == "y"
    assert clicks.text_key_at(memory, 24 * 8, 23 * 8) == "n"
    assert clicks.text_key_at(memory, 0, 23 * 8) == ""         # "I": the computer's word
    assert clicks.text_key_at(memory, 10 * 8, 3 * 8 + 7) == "s"   # inverse letters read too
    assert clicks.text_key_at(memory, 30 * 8, 3 * 8) == ""


@pytest.mark.parametrize("mirrored", [False, True])
def test_the_cube_and_the_dice_are_found_where_they_are_drawn(mirrored):
    screen = S.Screen(bytearray(65536), lambda *args: None)
    screen.mirrored = mirrored
    for owner in (None, "human", "computer"):
        screen.cube = (2, owner)
        col, row = S.cube_cell(owner, mirrored)
        assert clicks.board_thing_at(screen, col * 8 + 1, row * 8 + 1) == "cube"
        assert clicks.board_thing_at(screen, (col + S.CUBE_COLS - 1) * 8 + 7,
                                     (row + S.CUBE_ROWS - 1) * 8 + 7) == "cube"
    die = screen.column(S.DIE_COL, S.DIE_CELLS)
    assert clicks.board_thing_at(screen, die * 8 + 9, S.BOTTOM_DIE_ROW * 8 + 9) == "dice"
    assert clicks.board_thing_at(screen, die * 8 + 9, S.TOP_DIE_ROW * 8 + 9) == "dice"
    assert clicks.board_thing_at(screen, 14 * 8, 5 * 8) == ""     # the bar
    screen.cube = None
    col, row = S.cube_cell(None, mirrored)
    assert clicks.board_thing_at(screen, col * 8 + 1, row * 8 + 1) == ""


def runner_click(board_game, memory, x_px: int, y_px: int) -> str:
    """Runner.click on a stand-in runner: its session's game and its machine's memory."""
    fake = SimpleNamespace(session=SimpleNamespace(game=board_game),
                           machine=SimpleNamespace(memory=memory))
    return Runner.click(fake, x_px, y_px)


def test_a_click_on_the_cube_doubles_only_where_d_would():
    memory = screen_with({23: "Your throw"})
    screen = S.Screen(memory, lambda *args: None)
    screen.cube = (1, None)
    board_game = SimpleNamespace(prompt=SimpleNamespace(entering=False, board_clicks={}),
                                 table=SimpleNamespace(screen=screen))
    col, row = S.cube_cell(None)
    on_cube = (col * 8 + 4, row * 8 + 4)
    die = screen.column(S.DIE_COL, S.DIE_CELLS)
    on_dice = (die * 8 + 4, S.BOTTOM_DIE_ROW * 8 + 4)
    assert runner_click(board_game, memory, *on_cube) == ""           # no double possible: nothing
    assert runner_click(board_game, memory, *on_dice) == ""
    assert runner_click(board_game, memory, 3, 23 * 8) == "\n"         # the message line: ENTER
    board_game.prompt.board_clicks = {"cube": "d", "dice": " "}        # the cube stop
    assert runner_click(board_game, memory, *on_cube) == "d"
    assert runner_click(board_game, memory, *on_dice) == " "
