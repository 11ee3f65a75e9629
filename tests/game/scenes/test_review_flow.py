"""The game review reached as a player reaches it (game/scenes/game_over.py, match_end.py):
R at the game-over banner and R in the options between games, driven frame by frame with
keys on seeded games from a set-up board (tests/gamedriver.py): the progress, a move page,
the summary, a key stopping the computation, the .sgf written from the summary page and
loaded by `gnubg -t` with the same moves, and R with no finished game refused in words.
Each time the match goes on afterwards as before."""
import re

from game.board import screen as S
from game.files.settings import Settings
from game.matchfiles.matfile import parse_mat, write_mat
from game.model.position import Position
from gamedriver import GameDriver
from gnubg_tools import comparable, run_gnubg
from human_player import play_human_turn

MESSAGE, FOOTER, HEADLINE = S.MESSAGE_ROW, S.ROWS - 1, S.BOTTOM_FIRST_ROW - 1
# a short race from a set-up board: eight men each, the human's a little ahead
RACE = Position.from_points({6: 3, 5: 3, 4: 2}, {6: 3, 5: 3, 4: 3})
NEW_GAME = "Press any key for a new game"


def played_to_the_banner(seed=5, start=RACE, **options):
    """A game from `start` played to its end: the human types the engine's first legal
    play, the computer plays its first legal play; stops at the game-over banner."""
    driver = GameDriver(seed=seed, start=start, **options)
    return play_on(driver, lambda: driver.game.state.match.record.games[-1].finished)


def play_on(driver, done):
    """Play the turns (ENTER where asked) until done(), then on to the game-over banner."""
    for _ in range(5000):
        message = driver.message()
        if done() and (NEW_GAME in message or "R review the game" in message):
            return driver
        if "Your move?" in message and driver.game.state.turn and not driver.game.state.turn.made:
            play_human_turn(driver)
            driver.run(2)
        elif "ENTER" in message:
            driver.type("\n")
        else:
            driver.run(5)
    raise AssertionError("the game did not end:\n" + "\n".join(driver.text()))


def record_moves(driver, side):
    game = driver.game.state.match.record.games[0]
    return [(a.dice, a.play) for a in game.actions if a.kind == "move" and a.side == side]


def test_the_banner_shows_its_keys_r_and_o_above_the_message_line_and_stays_still():
    """Issue 59 item 3: the two lines no longer take turns on the message line (half of
    them easy to miss); both stay on screen as long as the banner waits."""
    driver = played_to_the_banner()
    assert "WIN" in driver.text()[HEADLINE]
    driver.until(NEW_GAME, row=MESSAGE)
    for _ in range(4):
        assert driver.text()[MESSAGE - 1].strip() == "R review the game  O options"
        assert driver.text()[MESSAGE].strip() == NEW_GAME
        driver.run(100)


def test_a_set_up_board_is_recorded_from_the_first_movers_side():
    driver = played_to_the_banner()
    game = driver.game.state.match.record.games[0]
    first = game.actions[0].side
    seen = RACE if first == driver.game.state.bottom else RACE.swapped()
    assert game.start == seen.position_id


def test_r_after_a_game_shows_progress_a_move_page_the_summary_then_the_banner_again():
    driver = played_to_the_banner()
    driver.type("r")
    driver.until("Looking at game 1")
    assert "Any key stops" in driver.text()[FOOTER]
    turns = re.search(r"Turn (\d+) of (\d+)", "\n".join(driver.text()))
    assert turns and int(turns.group(2)) >= len(record_moves(driver, "human")) * 2 - 1
    driver.until("REVIEW OF GAME 1", row=0)
    text = "\n".join(driver.text())
    assert "Rating (GNU Backgammon's):" in text and " You: " in text and " Me: " in text
    assert "Stopped" not in text
    assert "X: save" in driver.text()[FOOTER]
    driver.type("\n")                                   # the moves: the human's first
    (d1, d2), _ = record_moves(driver, "human")[0]
    driver.until(f" You {d1}{d2}: ", row=HEADLINE)
    headline = driver.text()[HEADLINE]
    assert re.search(r"(best|forced|-\d\.\d{3}) *$", headline), headline
    assert "Best" in driver.message() or "The best play." in driver.message() \
        or "luck" in driver.message()
    driver.type("c")                                    # the computer's moves too
    driver.until("REVIEW OF GAME 1", row=0)
    driver.type("\n")
    for _ in range(30):
        if " Me " in driver.text()[HEADLINE]:
            break
        driver.type("\n")
    else:
        raise AssertionError("the computer's moves were not shown")
    driver.type("q")
    driver.until(NEW_GAME, row=MESSAGE)
    assert "WIN" in driver.text()[HEADLINE]             # the board and banner are back
    driver.type(" ")
    driver.until("The opening throw")
    assert len(driver.games) == 2 and len(driver.game.state.match.results) == 1


def test_a_key_stops_the_computation_r_carries_on_and_the_match_goes_on():
    driver = played_to_the_banner()
    score = dict(driver.game.state.match.score)
    driver.type("r")
    driver.until("Any key stops", row=FOOTER)
    driver.type("x")                                    # at once: before the last turn
    driver.until("REVIEW OF GAME 1", row=0)
    text = "\n".join(driver.text())
    assert "Stopped:" in text and "R carries on." in text
    driver.type("r")
    driver.until("REVIEW OF GAME 1", row=0)
    assert "Stopped" not in "\n".join(driver.text())
    driver.type("q")
    driver.until(NEW_GAME, row=MESSAGE)
    assert driver.game.state.match.score == score
    driver.type("\n")
    driver.until("The opening throw")
    assert len(driver.games) == 2


def test_x_on_the_summary_writes_the_sgf_that_gnubg_loads_with_the_same_moves(tmp_path):
    driver = played_to_the_banner(export_dir=str(tmp_path))
    driver.type("r")
    driver.until("ENTER: moves", row=FOOTER)
    driver.type("x")
    driver.until(".sgf only")                   # a set-up board: a .mat cannot hold its start
    stem = next(line for line in driver.text() if ".sgf only" in line).split()[0][:-4]
    name = stem + ".sgf"
    assert stem.startswith("game1-") and (tmp_path / name).exists()
    assert not list(tmp_path.glob("*.mat"))
    assert "REVIEW OF GAME 1" in driver.text()[0]       # still on the summary page
    code, output = run_gnubg(tmp_path, tmp_path / name)
    assert code == 0, output
    for bad in ("WARNING", "Unrecognised", "not a valid", "Invalid", "illegal", "rror"):
        assert bad not in output, output
    record = driver.game.state.match.record
    ours = comparable(parse_mat(open(write_mat(record, tmp_path / "ours.mat")).read()))
    theirs = comparable(parse_mat((tmp_path / "gnubg.mat").read_text()))
    assert len(theirs) == 1 and theirs[0][2] == ours[0][2]
    assert len(theirs[0][2]) == len(record.games[0].actions)       # every move and the win
    text = (tmp_path / "gnubg.txt").read_text()
    assert Position.from_id(re.findall(r"Position ID: (\S+)", text)[0]) in (RACE,
                                                                           RACE.swapped())


def test_r_in_the_options_between_games_picks_a_finished_game_and_comes_back():
    driver = played_to_the_banner(start=[RACE, RACE])
    driver.type(" ")
    play_on(driver, lambda: len(driver.games) == 2
            and driver.game.state.match.record.games[-1].finished)
    driver.until(NEW_GAME, row=MESSAGE)
    driver.type("o")
    driver.until("OPTIONS", row=0)
    assert "R Review a game of this match" in "\n".join(driver.text())
    driver.type("r")
    driver.until("Review game 1-2 (ENTER 2)?", row=MESSAGE)
    driver.type("7\n")
    driver.until("There is no finished game 7.")
    driver.type("1\n")
    driver.until("REVIEW OF GAME 1", row=0)
    driver.type("q")
    driver.until("OPTIONS", row=0)
    driver.type("\n")
    driver.until("The opening throw")
    assert len(driver.games) == 3 and len(driver.game.state.match.results) == 2


def test_r_with_no_finished_game_says_so_and_loses_nothing():
    driver = GameDriver(seed=3, settings=Settings(players="computer-computer"))
    driver.until("The opening throw")
    for _ in range(300):                                # a key heard during a play stops
        if "Demo over" in driver.message():             # the demo, in game 1
            break
        driver.type("x")
        driver.run(10)
    driver.until("OPTIONS", row=0)
    assert not any(g.finished for g in driver.game.state.match.record.games)
    driver.type("r")
    driver.until("No game of this match has been")
    assert "finished yet. Play one to the" in "\n".join(driver.text())
    assert "Press ENTER" in driver.text()[FOOTER]
    driver.type("\n")
    driver.until("OPTIONS", row=0)
    driver.type("\n")
    driver.until("The opening throw")
    assert len(driver.games) == 2


def test_on_the_machine_r_at_the_banner_shows_the_review_read_back_from_the_screen():
    from gamedriver import MachineDriver
    from human_player import play_to_end
    driver = MachineDriver(seed=5, start=RACE, level=3, settings=Settings(speed="instant"))
    assert "WIN" in play_to_end(driver, max_loops=100_000)
    driver.until(NEW_GAME, row=MESSAGE)
    driver.type("r")
    driver.until("Looking at game 1")
    assert "Any key stops" in driver.text()[FOOTER]
    driver.until("REVIEW OF GAME 1", row=0)
    assert "Rating (GNU Backgammon's):" in "\n".join(driver.text())
    driver.type("\n")
    driver.until(" You ", row=HEADLINE)
    assert re.search(r"(best|forced|-\d\.\d{3}) *$", driver.text()[HEADLINE])
    driver.type("q")
    driver.until(NEW_GAME, row=MESSAGE)
    assert "WIN" in driver.text()[HEADLINE]
