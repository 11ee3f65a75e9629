"""QUIT in a game is a resignation (issue 52 item 1), driven with scripted keys and dice on the
stand-in machine: a gammon resigned at a cube of 2 ends a 3-point match for 4 points, counted
on the match-over page and read back by `gnubg -t` from our .mat and .sgf; a single declined
by level 5 with the typed step kept, then a gammon accepted in money play; the computer's own
offer in a lost race; two people; the cube at 64; a wrong answer to the question."""
import pytest

from game.analysis.judge import Reviewer
from game.board import message_rows
from game.board import screen as S
from game.files.session import Session
from game.files.settings import Settings
from game.matchfiles import sgf
from game.matchfiles.imports import read_match_file
from game.matchfiles.matfile import parse_mat, write_mat
from game.model import evaluator, resignation
from game.model.dice import Dice
from game.model.match import COMPUTER, HUMAN, RESIGN, Match
from game.model.match_terms import MatchTerms
from game.model.position import Position
from game.scenes.resign import BAD_ANSWER, question_lines
from gamedriver import GameDriver, board
from gnubg_tools import run_gnubg_commands
from shared_cases import HUMAN_STARTS, Policy, open_with_31

# the human's 15 men on its 18-point, mine all home: a race I win, a gammon all but sure
GAMMONED = board({17: 15}, {0: 3, 1: 3, 2: 3, 3: 3, 4: 3})
LOST_RACE = board({0: 1}, {0: 3, 1: 3})        # my 6 men cannot beat your last one


def resigned_match(tmp_path):
    """A 3-point match: game 1 won by the human (1-0); in game 2 the human doubles, I take,
    and the human resigns a gammon at the cube of 2. Returns the driver at the match-over
    page's end, the .mat exported."""
    match = Match(3)
    match.start_game()
    dice = Dice.scripted([1, 3,                        # game 1: you bear off with 3-1
                          *HUMAN_STARTS, 2, 1, 5, 4])  # game 2: you open, my 2-1, your 5-4
    driver = GameDriver(dice=dice, match=match, start=[board({0: 1}, {5: 10})],
                        cube_policy=Policy(take=True), export_dir=str(tmp_path),
                        settings=Settings(match_length=3))
    driver.until("Your move?")
    driver.type("a3\n")
    driver.until("Press any key for a new game")
    driver.type(" ")
    open_with_31(driver)
    driver.until("D doubles")
    driver.type("d")                                   # during my play: D before your throw
    driver.until("You double to 2: I take")
    driver.until("Your move?")
    driver.type("QUIT\n")
    driver.until("Resign (cube 2)? N plays on")
    assert driver.message() == "1 single, 2 gammon, 3 backgammon"
    driver.type("2")
    driver.until("I accept")
    driver.until("I WIN: you resign (4 points)")
    assert match.score == {HUMAN: 1, COMPUTER: 4} and match.is_over
    driver.until("Press any key")
    driver.type(" ")
    driver.until("MATCH OVER")
    page = "\n".join(driver.text())
    assert "a match to 3, 2 games" in page and "4 points to 1" in page
    driver.type("\n")
    driver.until("Export the match (.mat)?")
    driver.type("y")
    driver.until(".mat")
    return driver, match


def test_a_gammon_resigned_at_a_cube_of_2_scores_4_and_the_match_over_page_counts_it(tmp_path):
    driver, match = resigned_match(tmp_path)
    game = match.record.games[-1]
    assert (game.winner, game.points, game.how) == (COMPUTER, 4, RESIGN)
    assert match.results[-1].kind == RESIGN and match.results[-1].cube == 2
    assert "human resigns 4 pts, accepted" in driver.logs[1]
    assert match.match_id()                     # gnubg's game state 3: resigned
    exported = list(tmp_path.glob("*.mat"))
    assert len(exported) == 1
    games = parse_mat(exported[0].read_text()).games
    assert len(games) == 2 and games[1].actions[-1] == (1, "win", 4)


def gnubg_reads_back(record, tmp_path, games=None, kinds=("mat", "sgf")):
    """Our .mat and .sgf of `record` (the game numbers in `games`, else all) loaded by
    gnubg -t and exported again as .mat: the games gnubg read from each of `kinds`. (A
    game from a set-up board goes only in the .sgf: the .mat has no way to say its start.)"""
    write_mat(record, tmp_path / "ours.mat", games)
    sgf.write_sgf(record, tmp_path / "ours.sgf", games=games)
    verbs = {"mat": "import mat", "sgf": "load match"}
    commands = []
    for kind in kinds:
        commands += [f"{verbs[kind]} {tmp_path / f'ours.{kind}'}",
                     f"export match mat {tmp_path / f'from_{kind}.mat'}"]
    code, said = run_gnubg_commands(tmp_path, commands)
    assert code == 0 and "rror" not in said, said
    return [parse_mat((tmp_path / f"from_{kind}.mat").read_text()).games for kind in kinds]


def test_gnubg_reads_the_resigned_match_from_our_mat_and_sgf_with_the_same_score_and_so_do_we(
        tmp_path):
    _driver, match = resigned_match(tmp_path)
    for games in gnubg_reads_back(match.record, tmp_path, games=[2]):   # game 1: set up
        assert [g.scores for g in games] == [(1, 0)]
        assert games[0].actions[-1] == (1, "win", 4)          # Wins 4 points, my column
        kinds = [kind for _, kind, _ in games[0].actions]
        assert kinds[-4:-1] == ["double", "take", "move"]    # the roll in hand (issue 59
        assert games[0].actions[-2][2][1] == ()              # item 9): thrown, not played
    for name in ("from_mat.mat", "from_sgf.mat", "ours.sgf"):     # and our import reads them
        game = read_match_file(str(tmp_path / name)).games[-1]
        assert (game.winner, game.points, game.how) == ("black", 4, RESIGN)


def test_the_review_takes_a_resigned_game(tmp_path):
    _driver, match = resigned_match(tmp_path)
    review = Reviewer(match.record, 2, level=3, workers=1, checked=False).run()
    assert review.complete
    assert {"double", "take"} <= {i.kind for i in review.items}


def test_a_single_declined_keeps_the_typed_step_then_a_gammon_accepted_scores_money(tmp_path):
    match = Match(None)
    match.start_game()
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS), match=match, start=GAMMONED)
    driver.until("Your move?")
    driver.type("r3\n")                                   # one step typed
    driver.until("Your move?")
    made = list(driver.game.state.turn.made)
    driver.type("QUIT\n")
    driver.until("Resign? N plays on")
    driver.type("x")                                      # not an answer
    driver.until(BAD_ANSWER)
    driver.type("1")
    driver.until("I play on")                             # I expect nearly 2 points
    driver.until("Your move?")
    assert driver.game.state.turn.made == made and match.in_game and match.score[COMPUTER] == 0
    assert "human resigns 1 pt, declined" in driver.log
    driver.type("QUIT\n")
    driver.until("Resign?")
    driver.type("n")                                      # N plays on: nothing asked
    driver.until("Your move?")
    driver.type("QUIT\n")
    driver.until("Resign?")
    driver.type("2")
    driver.until("I WIN: you resign (2 points)")
    assert match.score == {HUMAN: 0, COMPUTER: 2} and match.balance(COMPUTER) == 2
    games, = gnubg_reads_back(match.record, tmp_path, kinds=("sgf",))    # a set-up board
    assert games[0].actions[-1] == (1, "win", 2)


def test_the_computer_offers_to_resign_a_lost_race_and_the_player_accepts():
    driver = GameDriver(dice=Dice.scripted([6, 6]), start=LOST_RACE,
                        settings=Settings(who_starts="computer"))
    driver.until("I resign 1 pt. Accept? (Y/N)")
    driver.type("y")
    driver.until("YOU WIN: I resign (1 point)")
    match = driver.game.state.match
    assert match.score == {HUMAN: 1, COMPUTER: 0} and match.results[-1].kind == RESIGN


def test_the_computers_offer_is_told_to_the_trace_so_a_player_outside_can_answer_it():
    """--trace names the question (a player reading the trace, tests/trace_player.py,
    answered nothing and the game stood at it until that player gave up)."""
    told: list = []
    settings = Settings(who_starts="computer")
    driver = GameDriver(dice=Dice.scripted([6, 6]), start=LOST_RACE, settings=settings,
                        session=Session(settings, trace=lambda kind, facts:
                                        told.append((kind, facts))))
    driver.until("I resign 1 pt. Accept? (Y/N)")
    assert told == [("prompt", {"asks": "resignation", "by": COMPUTER, "points": "1 pt"})]
    driver.type("y")
    driver.until("YOU WIN: I resign (1 point)")


def test_the_computers_offer_declined_plays_on_and_is_not_made_again():
    driver = GameDriver(dice=Dice.scripted([6, 6, 1, 2]), start=LOST_RACE,
                        settings=Settings(who_starts="computer"))
    driver.until("I resign 1 pt. Accept? (Y/N)")
    driver.type("q")                                      # Y or N only
    driver.until("Y or N?")
    driver.type("n")
    driver.until("You play on")
    driver.until("Your move?")
    assert driver.game.state.match.in_game and "computer resigns 1 pt, declined" in driver.log


def test_between_two_people_the_other_player_answers():
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS), start=GAMMONED,
                        settings=Settings(players="human-human"))
    driver.until("White's move?")
    driver.type("QUIT\n")
    driver.until("Resign?")
    driver.type("2")
    driver.until("White resigns 2 pts. OK? (Y/N)")
    driver.type("n")
    driver.until("White's move?")
    driver.type("QUIT\n")
    driver.until("Resign?")
    driver.type("1")
    driver.until("White resigns 1 pt. OK? (Y/N)")
    driver.type("y")
    driver.until("BLACK WINS: White resigns (1 pt)")       # fit to the row
    assert driver.log[-2:] == ["white resigns 2 pts, declined", "white resigns 1 pt, accepted"]
    assert driver.game.state.match.score == {"white": 0, "black": 1}


def test_a_backgammon_resigned_with_the_cube_at_64_scores_192_and_the_score_page_says_so():
    match = Match(None)
    match.start_game()
    match.cube_value, match.cube_owner = 64, HUMAN
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS * 2), match=match, start=GAMMONED)
    driver.until("Your move?")
    driver.type("QUIT\n")
    driver.until("Resign (cube 64)? N plays on")
    driver.type("3")
    driver.until("I WIN: you resign (192 points)")
    assert match.score[COMPUTER] == 192
    driver.until("Press any key for a new game")
    driver.type(" ")
    driver.until("Your move?")                            # the next game
    driver.type("S\n")
    driver.until("SCORE")
    assert "resigned" in "\n".join(driver.text())


@pytest.mark.parametrize("cube", [1, 2, 64])
def test_every_line_of_the_question_fits_its_message_row(cube):
    lines = question_lines(cube)
    message_rows.check(lines)                        # raises past 28 columns above, 32 below
    assert all(len(line) <= message_rows.ROW_COLS for line in lines[:-1])
    assert len(lines[-1]) <= 32 and 2 <= len(lines) <= message_rows.MAX_ROWS


def test_a_resignation_is_worth_the_match_table_after_its_points():
    met = evaluator.match_equity_table()
    terms = MatchTerms(length=5, away_me=5, away_opp=5)
    gammon = resignation.certain_equity(2, terms)
    assert gammon == pytest.approx(2 * met[2][4] - 1, abs=1e-5)     # 3-away against 5
    money = MatchTerms(cube_value=4, cube_owner=2)
    assert resignation.certain_equity(3, money) == 12


def test_a_lost_race_is_a_certain_loss_and_the_opening_is_not():
    assert resignation.certain_loss(LOST_RACE.swapped()) == 1
    assert resignation.certain_loss(Position.from_points({7: 15}, {1: 1})) == 2
    assert resignation.certain_loss(Position.start()) is None


def test_quit_typed_while_the_computer_plays_asks_before_the_next_throw():
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS + [2, 1, 5, 4]))
    open_with_31(driver)
    driver.until("I play")
    driver.type("QUIT\n")                     # Q heard during the play; U, I, T, ENTER after
    driver.until("Resign? N plays on")
    assert not driver.game.state.match.rolled       # before the throw
    driver.run(10)
    assert driver.text()[S.MESSAGE_ROW - 1].startswith("Resign")   # the rest of QUIT is
    assert driver.message() == "1 single, 2 gammon, 3 backgammon"   # no answer
    driver.type("n")
    driver.until("Your move?")
    assert driver.game.state.turn.dice == (5, 4) and driver.game.state.match.in_game


def test_a_resignation_through_the_real_window_with_key_down_and_key_up(tmp_path, monkeypatch):
    """The console's window (SDL's dummy driver): QUIT and ENTER at "Your move?", then 2, as
    pygame key-down and key-up events held a few frames each: the game ends as a gammon
    resigned and accepted, scored 2."""
    import json

    import pygame

    from screentext import screen_text
    from windowdriver import Player
    monkeypatch.setenv("SPECTRUM_BACKGAMMON_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    (tmp_path / "settings.json").write_text(json.dumps(
        {"cube": False, "who_starts": "human", "sound": False}))
    player = Player(frames=6000)
    keys = {"q": pygame.K_q, "u": pygame.K_u, "i": pygame.K_i, "t": pygame.K_t,
            "\r": pygame.K_RETURN, "2": pygame.K_2}
    queue: list = []                 # (frame, event type, key)
    seen = {"asked": False, "typed": False, "result": None}

    def press(text, at):
        for n, ch in enumerate(text):
            queue.append((at + 8 * n, pygame.KEYDOWN, keys[ch]))
            queue.append((at + 8 * n + 4, pygame.KEYUP, keys[ch]))

    def script(p):
        for item in [q for q in queue if q[0] <= p.count]:
            queue.remove(item)
            pygame.event.post(pygame.event.Event(item[1], key=item[2], mod=0, unicode=""))
        question = screen_text(p.machine)[22]
        if p.at_move_prompt() and not seen["typed"]:
            seen["typed"] = True
            press("quit\r", p.count + 4)
        elif question.startswith("Resign?") and not seen["asked"]:
            seen["asked"] = True
            press("2", p.count + 4)
        elif p.game is not None and p.game.state.match.results:
            seen["result"] = p.game.state.match.results[-1]
            return False
        return True
    player.run(script)
    assert seen["asked"] and seen["result"] is not None
    assert (seen["result"].kind, seen["result"].points) == ("resign", 2)


def test_quit_at_enter_rolls_d_doubles_asks_before_the_dice_and_n_comes_back_to_the_stop():
    driver = GameDriver(dice=Dice.scripted([5, 3]), settings=Settings(who_starts="human"))
    driver.until("You: ENTER rolls, D doubles")
    driver.type("QUIT\n")
    driver.until("Resign? N plays on")
    driver.run(10)
    assert driver.text()[S.MESSAGE_ROW - 1].startswith("Resign")
    assert not driver.game.state.match.rolled
    driver.type("n")
    driver.until("You: ENTER rolls, D doubles")
    driver.type("\n")
    driver.until("Your move?")
    assert driver.game.state.turn.dice == (5, 3)
