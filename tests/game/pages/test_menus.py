"""The screens outside the turn loop (game/pages/menus.py) on the real 48K: each routine is driven
frame by frame with keys typed through the keyboard matrix, and the screen is read back
through the ROM's font. Options, help, Y/N, score, match over, typed dice and match length."""
import json

import pytest

from game.board import screen as S
from game.files.settings import Settings, load_settings
from game.model.match import Match
from game.pages import menus, options_page
from game.scenes.keys import HELP_PAGES
from gamedriver import RomRoutineDriver as RoutineDriver


@pytest.fixture
def config_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("SPECTRUM_BACKGAMMON_CONFIG_DIR", str(tmp_path))
    return tmp_path


# ---------------------------------------------------------------------------------------
# the options menu

def test_options_menu_shows_every_option_with_its_value(config_dir):
    driver = RoutineDriver(lambda b: options_page.options_menu(b, Settings()))
    driver.run(3)
    screen = driver.screen()
    for words in ("OPTIONS", "1 Level        5", "2 Cube         ON", "3 Sound        ON",
                  "4 Speed        EACH STEP", "5 Match length UNLIMITED", "6 Who starts   ROLL",
                  "7 Ask READY?   OFF", "8 Board style  CLASSIC", "9 Directions   OFF",
                  "A Tokens       OFF", "B Set dice     OFF", "C Players      HUMAN V COMPUTER",
                  "ENTER to play on"):
        assert words in screen, words


def test_options_key_steps_the_option_and_the_screen_updates(config_dir):
    settings = Settings()
    driver = RoutineDriver(lambda b: options_page.options_menu(b, settings))
    driver.type("1")                      # level 5 -> 1
    assert "1 Level        1" in driver.screen()
    driver.type("2")                      # cube off
    driver.type("4")                      # speed -> quick
    driver.type("c")                      # players: small letters do too
    screen = driver.screen()
    assert "2 Cube         OFF" in screen
    assert "4 Speed        QUICK" in screen
    assert "C Players      HUMAN V HUMAN" in screen
    driver.type("\n")
    outcome = driver.finish()
    assert outcome.changed == ("level", "cube", "speed", "players")
    assert (settings.level, settings.cube, settings.speed, settings.players) == \
        (1, False, "quick", "human-human")


def test_options_every_choice_cycles_back_to_where_it_started(config_dir):
    settings = Settings()
    driver = RoutineDriver(lambda b: options_page.options_menu(b, settings))
    counts = {"1": 5, "2": 2, "3": 2, "4": 3, "6": 3, "7": 2, "8": 5, "9": 2, "A": 2,
              "B": 2, "C": 3}
    for key, n in counts.items():
        driver.type(key.lower() * n)
    driver.type("\n")
    driver.finish()
    assert settings == Settings()


def test_options_persist_across_restart(config_dir):
    settings = Settings()
    driver = RoutineDriver(lambda b: options_page.options_menu(b, settings))
    driver.type("11")                     # level 5 -> 1 -> 2
    driver.type("3")                      # sound off
    driver.type("8")                      # board style: tournament
    driver.type("5")
    driver.type("7\n")                    # a 7-point match
    driver.type("\n")
    outcome = driver.finish()
    assert outcome.saved
    # a new run of the program reads the file back
    again, warning = load_settings(warn=None)
    assert warning is None
    assert (again.level, again.sound, again.board_style, again.match_length) == \
        (2, False, "tournament", 7)
    data = json.loads((config_dir / "settings.json").read_text())
    assert data["level"] == 2
    driver = RoutineDriver(lambda b: options_page.options_menu(b, again))
    driver.run(3)
    screen = driver.screen()
    assert "1 Level        2" in screen and "5 Match length 7" in screen
    assert "8 Board style  TOURNAMENT" in screen


@pytest.mark.parametrize("typed, reason", [("0", "not 0"), ("26", "not 26"),
                                           ("abc", "a number from 1 to 25")])
def test_match_length_out_of_range_or_not_a_number_is_asked_again(config_dir, typed, reason):
    settings = Settings()
    driver = RoutineDriver(lambda b: options_page.options_menu(b, settings))
    driver.type("5")
    driver.until("Match length (1-25, U)?", max_frames=20)
    driver.type(typed + "\n")
    driver.run(2)
    assert reason in driver.words()
    assert "Match length (1-25, U)?" in driver.text()[S.MESSAGE_ROW]      # asked again
    assert settings.match_length is None
    driver.type("3\n")
    driver.run(2)
    assert "5 Match length 3" in driver.screen()
    assert "not" not in "".join(driver.text()[menus.REASON_ROW:menus.REASON_ROW + 2])
    driver.type("\n")
    driver.finish()
    assert settings.match_length == 3


def test_a_refused_match_length_between_games_leaves_the_s_r_t_rows_whole(config_dir):
    settings = Settings()
    driver = RoutineDriver(lambda b: options_page.options_menu(b, settings, offer_setup=True))
    driver.run(3)
    before = driver.text()[options_page.HINT_ROW:options_page.HINT_ROW + 5]
    assert "R Review a game of this match" in before[3]
    driver.type("5")
    driver.until("Match length (1-25, U)?", max_frames=20)
    driver.type("abc\n")
    driver.run(2)
    assert "a number from 1 to 25" in driver.words()          # the reason over rows 20-21
    driver.type("7\n")
    driver.run(2)
    assert driver.text()[options_page.HINT_ROW:options_page.HINT_ROW + 5] == before
    for row in range(menus.REASON_ROW, menus.REASON_ROW + 2):
        assert driver.attr_at(row, 0) == menus.KEY_CELL
        assert {driver.attr_at(row, col) for col in range(1, S.COLS)} == {menus.PAGE}
    driver.type("r")
    assert driver.finish().review and settings.match_length == 7


def test_match_length_26_is_asked_again(config_dir):
    driver = RoutineDriver(lambda b: menus.ask_match_length(b))
    driver.type("26\n")
    driver.run(2)
    assert not driver.done
    assert "Match length must be 1 to 25 points (not 26)" in driver.words()
    driver.type("u\n")
    assert driver.finish() is None          # U: unlimited (money play)


def test_match_length_empty_line_is_asked_again_and_25_is_taken(config_dir):
    driver = RoutineDriver(lambda b: menus.ask_match_length(b))
    driver.type("\n")
    driver.run(2)
    assert not driver.done
    assert "Type a number from 1 to 25" in driver.words()
    driver.type("25\n")
    assert driver.finish() == 25


def test_options_other_keys_change_nothing(config_dir):
    settings = Settings()
    driver = RoutineDriver(lambda b: options_page.options_menu(b, settings))
    driver.type("zq!Y")                  # no option has Y (E Rules, F Score & pips, G Cube stop)
    driver.type("\n")
    outcome = driver.finish()
    assert outcome.changed == () and settings == Settings()


def test_options_s_leaves_for_set_up_when_offered(config_dir):
    driver = RoutineDriver(lambda b: options_page.options_menu(b, Settings(), offer_setup=True))
    driver.run(3)
    assert "S Set up your own board" in driver.screen()
    driver.type("s")
    assert driver.finish().setup_board


def test_options_unwritable_config_says_so_and_still_returns(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("SPECTRUM_BACKGAMMON_CONFIG_DIR", str(blocker / "sub"))
    settings = Settings()
    driver = RoutineDriver(lambda b: options_page.options_menu(b, settings))
    driver.type("1\n")
    driver.run(3)
    assert "could not be saved" in driver.words()
    driver.type("\n")
    outcome = driver.finish()
    assert not outcome.saved and settings.level == 1


def test_options_menu_fits_the_screen_with_colours_on_the_grid(config_dir):
    settings = Settings(players="human-computer", board_style="tournament")
    driver = RoutineDriver(lambda b: options_page.options_menu(b, settings, offer_setup=True))
    driver.run(3)
    for _, _, line in settings.menu_lines():
        assert len(line) <= S.COLS
    row = options_page.OPTION_FIRST_ROW
    assert driver.attr_at(row, 0) == menus.KEY_CELL              # the key, inverse
    assert driver.attr_at(row, options_page.VALUE_COL) == menus.VALUE
    assert driver.attr_at(0, 5) == menus.TITLE
    style_row = options_page.OPTION_FIRST_ROW + 7
    swatch = [(driver.attr_at(style_row, options_page.SWATCH_COL + i) >> 3) & 7 for i in range(5)]
    style = settings.style
    assert swatch == [style.frame, style.board, *style.points, style.bar]


# ---------------------------------------------------------------------------------------
# help

def test_help_lists_every_key_command_the_mouse_and_rollouts_on_four_pages():
    driver = RoutineDriver(lambda b: menus.help_screens(b, HELP_PAGES))
    driver.run(3)
    first = driver.screen()
    assert "ENTER for the next page" in first
    driver.type("x")                          # only ENTER turns the page
    assert driver.screen() == first
    driver.type("\n")
    driver.run(2)
    second = driver.screen()
    assert "ENTER for the next page" in second
    driver.type("\n")
    driver.run(2)
    third = driver.screen()
    assert "ENTER for the next page" in third
    driver.type("\n")
    driver.run(2)
    fourth = driver.screen()
    assert "ENTER to go back" in fourth
    seen = first + second + third + fourth
    for words in ("QUIT", "D/DOUBLE", "A ", "P ", "T ", "U ", "S ", "I ", "O ", "H ", "X ", "V ",
                  "K4", "4K", "z4", "Y or N", "READY?", "31", "mouse", "a die", "F1", "F12",
                  "(R: roll out)", "ROLLOUTS", "R on a review move"):
        assert words in seen, words
    driver.type("\n")
    driver.finish()


def test_help_lines_fit_32_columns():
    for title, lines in HELP_PAGES:
        assert len(lines) <= S.ROWS - 3
        assert all(len(line) <= S.COLS for line in lines), title


def test_advice_screen_thinks_then_lists_the_plays():
    from game.model.position import Position
    fake = [("h3 f1", 0.202), ("m3 j1", 0.031)]
    driver = RoutineDriver(lambda b: menus.advice_screen(b, Position.start(), (3, 1), fake))
    driver.run(3)
    words = driver.words()
    assert "ADVICE" in words and "Best plays for 31" in words
    assert "1. h3 f1 +0.202" in words and "2. m3 j1 +0.031 (-0.171)" in words
    driver.type("\n")
    driver.finish()


def test_tell_wraps_a_long_reason_above_the_message_line_then_redraws():
    redrawn = []
    reason = "Only the owner of the cube may double, and you do not own it"
    driver = RoutineDriver(lambda b: menus.tell(b, reason, redraw=lambda: redrawn.append(1)))
    driver.run(2)
    assert driver.text()[S.MESSAGE_ROW - 2].startswith("Only the owner of the cube may")
    assert driver.text()[S.MESSAGE_ROW].startswith("Press ENTER")
    assert driver.attr_at(S.MESSAGE_ROW - 1, 0) == menus.WARNING
    driver.type("\n")
    driver.finish()
    assert redrawn == [1]


# ---------------------------------------------------------------------------------------
# Y/N, dice

def test_yes_no_takes_y_or_n_in_either_case():
    for keys, answer in (("y", True), ("Y", True), ("n", False), ("N", False)):
        driver = RoutineDriver(lambda b: menus.ask_yes_no(b, "Do you take?"))
        driver.run(2)
        assert "Do you take? (Y/N)" in driver.text()[S.MESSAGE_ROW]
        driver.type(keys)
        assert driver.finish() is answer


def test_yes_no_other_answers_are_asked_again():
    driver = RoutineDriver(lambda b: menus.ask_yes_no(b, "READY?"))
    driver.type("x1\n ")
    assert not driver.done
    assert "Y or N? READY?" in driver.text()[S.MESSAGE_ROW]
    driver.type("n")
    assert driver.finish() is False


@pytest.mark.parametrize("typed, dice", [("31\n", (3, 1)), ("3 1\n", (3, 1)),
                                         ("66\n", (6, 6)), (" 2-5 \n", (2, 5))])
def test_set_dice_reads_a_roll(typed, dice):
    driver = RoutineDriver(lambda b: menus.ask_dice(b, "human"))
    driver.run(2)
    assert "Dice for you?" in driver.text()[S.MESSAGE_ROW]
    driver.type(typed)
    assert driver.finish() == dice


@pytest.mark.parametrize("typed, reason", [("71", "Dice show 1 to 6"), ("30", "Dice show 1 to 6"),
                                           ("3", "Two dice, e.g. 31"),
                                           ("ab", "Two dice, e.g. 31"),
                                           ("", "Type the roll: 31")])
def test_set_dice_refuses_with_the_reason_and_asks_again(typed, reason):
    driver = RoutineDriver(lambda b: menus.ask_dice(b, "computer"))
    driver.type(typed + "\n")
    driver.run(2)
    assert driver.text()[S.MESSAGE_ROW].startswith(reason + ". Press ENTER")
    driver.type("\n")
    driver.run(2)
    assert "Dice for me?" in driver.text()[S.MESSAGE_ROW]
    driver.type("42\n")
    assert driver.finish() == (4, 2)


def test_yes_no_enter_may_stand_for_an_answer_when_asked_to():
    driver = RoutineDriver(lambda b: menus.ask_yes_no(b, "READY?", enter_means=True))
    driver.type("\n")
    assert driver.finish() is True


def test_options_sound_off_silences_the_machine_at_once(config_dir):
    settings = Settings()
    driver = RoutineDriver(lambda b: options_page.options_menu(b, settings))
    driver.type("3")
    assert driver.basic.silent and settings.sound is False
    driver.type("3")
    assert not driver.basic.silent


# ---------------------------------------------------------------------------------------
# the score and the end of a match

def three_point_match_at_crawford() -> Match:
    match = Match(3)
    match.start_game()
    match.start_turn("human")
    match.double("human")
    match.take()
    match.end_game("human", "single")        # 2-0 on a cube of 2
    match.start_game()                      # the Crawford game
    return match


def test_score_screen_shows_scores_cube_and_crawford():
    match = three_point_match_at_crawford()
    driver = RoutineDriver(lambda b: menus.score_screen(b, match))
    driver.run(3)
    screen = driver.screen()
    assert "SCORE" in screen and "MATCH TO 3 POINTS" in screen
    assert "You            2   needs 1" in screen
    assert "Me             0   needs 3" in screen
    assert "The Crawford game: no doubling" in screen
    assert "Cube 1, in the middle" in screen
    assert "  1   You         single      2" in screen
    driver.type("\n")
    driver.finish()


def test_score_screen_money_play_shows_the_running_total_and_cube_owner():
    match = Match(None)
    match.start_game()
    match.end_game("computer", "gammon")
    match.start_game()
    match.start_turn("human")
    match.double("human")
    match.take()
    driver = RoutineDriver(lambda b: menus.score_screen(b, match))
    driver.run(3)
    screen = driver.screen()
    assert "MONEY PLAY" in screen and "I am 2 ahead" in screen
    assert "Cube 2, owned by me" in screen
    assert "needs" not in screen


def test_match_over_screen_names_the_winner_and_plays_a_tune():
    match = three_point_match_at_crawford()
    match.end_game("human", "gammon")
    heard = []

    def match_over(basic):
        basic.on_beep = lambda ms, hz: heard.append(hz)
        return menus.match_over_screen(basic, match)
    driver = RoutineDriver(match_over)
    driver.run(3)
    screen = driver.screen()
    assert "YOU WIN THE MATCH" in screen and "4 points to 0" in screen
    assert "a match to 3, 2 games" in screen
    assert heard == [hz for _, hz in menus.FANFARE]
    driver.type("\n")
    assert driver.finish() == "human"
