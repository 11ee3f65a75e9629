"""The options in the running program (issue 8): read at start-up (a damaged file gives the
defaults and a one-line warning), O at "Your move?" and before a game, the level taking
effect at the next computer decision, sound, speed; H (help) and a redrawn board after."""
import json

import roms
from game.files.settings import Settings, load_settings
from game.model.dice import Dice
from game.scenes import timing
from game.zx import usr, usr_layout
from game.zx.basic import Basic
from gamedriver import GameDriver

HUMAN_STARTS = [1, 3]


def at_your_move(driver):
    driver.until("Your move?")
    assert "f e d c b a" in driver.text()[22]


def test_options_persist_across_a_restart(tmp_path, monkeypatch):
    monkeypatch.setenv("SPECTRUM_BACKGAMMON_CONFIG_DIR", str(tmp_path))
    settings, warning = load_settings(warn=None)
    assert warning is None and settings.level == 5
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS), settings=settings)
    at_your_move(driver)
    driver.type("O\n")
    driver.until("OPTIONS")
    driver.type("1")                     # level 5 -> 1
    driver.type("3")                     # sound off
    driver.type("4")                     # speed: quick
    driver.type("\n")
    at_your_move(driver)                 # the board, dice and prompt are back
    assert driver.basic.silent
    saved = json.loads((tmp_path / "settings.json").read_text()) if (
        tmp_path / "settings.json").exists() else None
    assert saved is None or saved["level"] == 1
    again, warning = load_settings(warn=None)           # the next start
    assert warning is None
    assert (again.level, again.sound, again.speed) == (1, False, "quick")
    driver2 = GameDriver(dice=Dice.scripted(HUMAN_STARTS), settings=again)
    at_your_move(driver2)
    assert driver2.basic.silent
    driver2.type("O\n")
    driver2.until("OPTIONS")
    page = "\n".join(driver2.text())
    assert "1 Level        1" in page and "3 Sound        OFF" in page and "QUICK" in page


def test_a_damaged_settings_file_gives_defaults_and_a_one_line_warning(tmp_path, monkeypatch):
    monkeypatch.setenv("SPECTRUM_BACKGAMMON_CONFIG_DIR", str(tmp_path))
    (tmp_path / "settings.json").write_text("{ not json")
    settings, warning = load_settings(warn=None)
    assert warning and settings == Settings()
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS), settings=settings, warning=warning)
    assert driver.message() == "Options file damaged: defaults"
    at_your_move(driver)
    assert (tmp_path / "settings.json").read_text() == "{ not json"   # kept


def test_console_runner_loads_the_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("SPECTRUM_BACKGAMMON_CONFIG_DIR", str(tmp_path))
    Settings(level=2, sound=False).save()
    from game.main import Runner
    from spectrum.machine import Spectrum48
    runner = Runner(Spectrum48(roms.ROM_PATH), "instant", seed=1)
    assert runner.session.settings.level == 2 and not runner.session.settings.sound


def test_level_change_takes_effect_at_the_next_computer_decision():
    settings = Settings(level=5)
    levels = []

    def chooser(position, dice, terms=None):
        levels.append(settings.level)
        return usr.first_legal_play(position, dice)
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS + [2, 1, 5, 4]), settings=settings,
                        chooser=chooser)
    at_your_move(driver)
    driver.type("h3\n")
    at_your_move(driver)
    driver.type("f1\n")
    driver.until("I play")
    assert levels == [5]
    at_your_move(driver)
    driver.type("O\n")
    driver.until("OPTIONS")
    driver.type("1\n")                    # level 5 -> 1, then back to the game
    at_your_move(driver)
    turn = driver.game.state.turn
    while not turn.complete:
        f, d = turn.allowed_steps()[0]
        driver.type(f"{driver.game.state.position.letter_of_index(f)}{d}\n")
        driver.run(2)
    driver.until("I play")
    assert levels == [5, 1]


def test_usr_chooser_asks_the_machine_code_at_the_level_of_the_moment(monkeypatch):
    from gamedriver import SYMBOLS, StandInMachine
    machine = StandInMachine()
    symbols = dict(SYMBOLS, USR_ENTRY=0x8000, PARAMS=0x9000)
    basic = Basic(machine, symbols)
    asked = []
    real = usr_layout.encode_request

    def spy(job, position, dice, level, terms):
        asked.append(level)
        return real(job, position, dice, level, terms)
    monkeypatch.setattr(usr_layout, "encode_request", spy)
    monkeypatch.setattr(usr_layout, "usr_call", lambda memory, params: 1)   # refused: fallback
    settings = Settings(level=3)
    choose = usr.usr_chooser(basic, lambda: settings.level)
    from game.model.position import Position
    choose(Position.start(), (3, 1))
    settings.level = 1
    choose(Position.start(), (3, 1))
    assert asked == [3, 1]


def test_speed_instant_shows_the_computer_play_at_once():
    settings = Settings(speed="instant")
    driver = GameDriver(dice=Dice.scripted([3, 1]), settings=settings)   # I start
    driver.until("I play")
    frames = driver.frames
    driver.until("Your move?")
    instant = driver.frames - frames
    slow = GameDriver(dice=Dice.scripted([3, 1]))
    slow.until("I play")
    frames = slow.frames
    slow.until("Your move?")
    assert instant < slow.frames - frames - 2 * timing.STEP_PAUSE_FRAMES
    assert driver.game.state.position == slow.game.state.position


def test_help_pages_then_the_board_back():
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS))
    at_your_move(driver)
    def picture():                     # the board's pixels and colours, rows 0-21
        mem = driver.machine.memory
        from game.board import screen as S
        return [bytes(mem[S.bitmap_addr(c, y)] for c in range(32)) for y in range(22 * 8)] + \
            [bytes(mem[S.attr_addr(c, r)] for c in range(32)) for r in range(22)]
    before = picture()
    driver.type("H\n")
    driver.until("KEYS  (1/4)")
    driver.type("\n")
    driver.until("KEYS  (2/4)")
    driver.type("\n")
    driver.until("MOUSE AND WINDOW  (3/4)")
    driver.type("\n")
    driver.until("ROLLOUTS  (4/4)")
    driver.type("\n")
    at_your_move(driver)
    assert picture() == before                          # board, dice and cube as before
    assert driver.game.state.turn.made == []


def at_the_new_game_key() -> GameDriver:
    """A game won by the human's last man off (a3), waiting at 'Press any key for a new game'."""
    from game.model.match import Match
    from game.model.position import Position
    match = Match(None)
    match.start_game()
    cells = [0] * 50
    cells[0], cells[25 + 5] = 1, 10
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS + [1, 3]), match=match,
                        start=Position(tuple(cells)))
    at_your_move(driver)
    driver.type("a3\n")
    driver.until("Press any key for a new game")
    return driver


def test_options_before_a_game_from_the_game_over_key():
    driver = at_the_new_game_key()
    driver.type("O")
    driver.until("OPTIONS")
    assert "S" in "\n".join(driver.text())
    driver.type("\n")
    driver.until("The opening throw")


def test_set_up_a_board_from_the_options_before_a_game():
    driver = at_the_new_game_key()
    driver.type("o")
    driver.until("OPTIONS")
    driver.type("S")
    driver.until("ENTER to begin")
    driver.type("\n")
    driver.until("Set up?")
    driver.type("W K3\n")                    # three more white men on K (15 + 3: refused)
    driver.until("Press ENTER")
    driver.type("\n")
    driver.until("Set up?")
    driver.type("W F0\n")                    # clear white's 6-point: 10 white men
    driver.until("Set up?")
    driver.type("GO\n")
    at_your_move(driver)
    position = driver.game.state.position
    assert position.board[5] == 0 and sum(position.board[:25]) == 10
    assert driver.game.state.turn.dice == (3, 1)
