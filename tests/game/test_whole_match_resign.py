"""A whole match as a person plays it, continued (issue 52): QUIT as a resignation in a
3-point match (a single declined and played on, a gammon accepted), a game typed at F10
speed with keys held in host time, and a money session of three games with resignations;
the score each time as GNU Backgammon reads the exported .mat. The window, the hands and
the person's choices are whole_match_player.py's; this file adds only what differs."""
from dataclasses import dataclass, field
from pathlib import Path

import pygame
import pytest

from game import words
from game.board import clicks
from game.board import screen as S
from game.model import evaluator, rules
from game.model.match import COMPUTER, HUMAN
from spectrum.screen_text import line_text
from whole_match_player import (
    SETTINGS,
    Hands,
    Seen,
    act,
    gnubg_final_score,
    page_score_is_gnubgs,
    planned_step,
    play_match,
)
from windowdriver import window_config

QUESTION = "1 single, 2 gammon, 3 backgammon"   # "Resign? N plays on" on the row above
ROM_REPEAT_FRAMES = 35          # the 48K's REPDEL: a key held this many frames types again


@dataclass
class Quits:
    """The person's QUITs in order, each at (game number, its turn of the game) with the
    answer to "Resign? N plays on" / "1 single, 2 gammon, 3 backgammon", typed after
    `steps_first` steps of the turn; the computer's answers as seen, and whether the steps
    typed first were still there after each decline."""
    when: list                                  # ((game, turn), "1", "2" or "3"), in order
    worst_in: tuple = ()                        # the games where the person plays its worst
    steps_first: int = 1
    turn: object = None                         # the rules.Turn being typed
    turn_number: tuple = (0, 0)                 # (game, turn of that game)
    asked: str | None = ""                      # the answer waiting to be given; None: given
    typed_before: list = field(default_factory=list)
    answers: list = field(default_factory=list)  # ((game, turn), kind, "accept"/"play on")
    kept: list = field(default_factory=list)    # after each decline: the steps as they were


def worst_step(seen: Seen, board_game) -> tuple[int, int]:
    """The next step of the worst play of the roll (the evaluator.s last at level 1), so the
    computer is soon far ahead and a single is too little for it."""
    turn = board_game.state.turn
    if not turn.made or not seen.plan:
        ranked = evaluator.ranked_plays(turn.start.position_id, turn.dice, 1)
        worst = ranked[-1].play.after.position_id
        play = next(p for p in rules.legal_plays(turn.start, turn.dice)
                    if p.after.position_id == worst)
        seen.plan = [(step.from_index, step.die) for step in play.steps]
    return seen.plan[len(turn.made)]


def quitting(quits: Quits):
    """act, with QUIT typed at the turns of `quits.when` and the question answered (its
    number clicked in the mouse variant); everything else as act does it."""
    def acting(hands: Hands, p) -> bool:
        hands.seen.doubled = True                  # no double of the person's: the cube at 1
        board_game, message = p.game, line_text(p.machine.memory, S.MESSAGE_ROW)
        rows = range(S.MESSAGE_ROW - 2, S.MESSAGE_ROW + 1)  # the question's rows, at once
        lines = {row: line_text(p.machine.memory, row) for row in rows}
        if quits.asked and any(QUESTION in line for line in lines.values()):
            for row, line in lines.items():
                if quits.asked in [key for *_cols, key in clicks.hot_keys(line)]:
                    hands.answer(quits.asked, line, row)      # its row of the two shown
                    quits.asked = None
                    return True
            raise AssertionError(f"no {quits.asked!r} on the question's rows")
        said = "accept" if "I accept" in message else "play on" if "I play on" in message else ""
        if said and quits.asked is None:
            quits.answers.append((*quits.when.pop(0), said))
            quits.asked = ""
            return True
        if board_game is None or not board_game.prompt.entering:
            return act(hands, p)
        if board_game.state.turn is not quits.turn:
            number = board_game.state.match.game_number
            turns = quits.turn_number[1] if quits.turn_number[0] == number else 0
            quits.turn, quits.turn_number = board_game.state.turn, (number, turns + 1)
        elif quits.answers and quits.answers[-1][2] == "play on" and \
                len(quits.kept) < sum(a[2] == "play on" for a in quits.answers):
            quits.kept.append(list(board_game.state.turn.made) == quits.typed_before)
        if quits.when and quits.when[0][0] == quits.turn_number and \
                len(board_game.state.turn.made) == quits.steps_first:
            quits.typed_before, quits.asked = list(board_game.state.turn.made), quits.when[0][1]
            hands.press("quit\n")
            return True
        number = board_game.state.match.game_number
        choose = worst_step if number in quits.worst_in else planned_step
        hands.enter_step(board_game.table.screen, *choose(hands.seen, board_game))
        return True
    return acting


@pytest.fixture
def configure(tmp_path, monkeypatch):
    """The settings file written with `changes` to whole_match_player's SETTINGS; returns the
    folder the program runs and exports in."""
    monkeypatch.chdir(tmp_path)

    def write(**changes):
        return window_config(tmp_path, monkeypatch, {**SETTINGS, **changes})
    return write


# Game 1 played at its worst by the person, so that at its 25th turn the computer has a
# gammon more often than not: a single is too little for it (declined, the step typed
# before QUIT still made), a gammon enough (accepted: 2-0); then the Crawford game
# resigned at once (a single wins the computer the match, 3-0).
RESIGNING = [((1, 25), "1"), ((1, 25), "2"), ((2, 1), "1")]


def resigned_match(configure, mouse: bool):
    config = configure()
    quits = Quits(when=list(RESIGNING), worst_in=(1,))
    seen, player = play_match(config, mouse, quitting(quits))
    print(f"resignations, mouse={mouse}: {player.count} frames")
    assert [(at, kind) for at, kind, _said in quits.answers] == RESIGNING
    assert [said for *_at, said in quits.answers] == ["play on", "accept", "accept"]
    assert quits.kept == [True]
    assert player.game.state.match.score == {HUMAN: 0, COMPUTER: 3}
    page_score_is_gnubgs(seen, player, config)
    return seen, player


def test_quit_a_single_declined_and_played_on_then_a_gammon_accepted_by_keys(configure):
    seen, _player = resigned_match(configure, mouse=False)
    assert seen.keys_pressed > len("quit\n") * len(RESIGNING)   # the answers typed too


def test_the_resignations_answered_by_clicking_the_question_words(configure):
    seen, _player = resigned_match(configure, mouse=True)
    assert seen.keys_pressed == len("quit\n") * len(RESIGNING)     # the QUITs alone typed


F10_HOLD_S = 0.04               # a quick tap of a key, in host time, F10 or not


def typing_fast(hands: Hands, p) -> bool:
    """act, after F10 is pressed in the paced window, with each step typed key by key and
    the line read back before its ENTER."""
    if not hands.seen.doubled:
        hands.seen.doubled = True
        p.loop.fast = False                        # the window as it opens: 50 Hz
        for kind in (pygame.KEYDOWN, pygame.KEYUP):
            pygame.event.post(pygame.event.Event(kind, key=pygame.K_F10, mod=0, unicode=""))
        return True
    assert p.loop.fast, "F10 did not make the window fast"
    board_game, saved = p.game, sorted(Path.cwd().glob("match-*.mat"))
    if saved:                       # "Saved match-..." is gone before the Y is let go
        hands.seen.saved = saved[0].name
        return False
    if board_game is None or not board_game.prompt.entering:
        return act(hands, p)
    from_index, die = planned_step(hands.seen, board_game)
    typed = f"{board_game.state.turn.start.letter_of_index(from_index)}{die}"
    hands.press(typed)
    hands.read(typed)
    hands.press("\n")
    return True


def test_a_game_typed_at_f10_speed_reads_back_each_key_once(configure):
    config = configure(match_length=1, cube=False)
    seen, player = play_match(config, False, typing_fast, hold_s=F10_HOLD_S,
                              hold_frames=(2, None), frames=400_000)
    print(f"F10 game: {player.count} frames, {len(seen.held_frames)} keys held "
          f"{min(seen.held_frames)}-{max(seen.held_frames)} frames")
    assert seen.over_page and seen.read_back
    for typed, line in seen.read_back:
        shown = f"{words.say('move?', HUMAN)} {typed}"
        assert line.startswith(shown) and line[len(shown):].strip() in ("", "L"), (typed, line)
    assert max(seen.held_frames) > ROM_REPEAT_FRAMES   # held past the 48K's repeat, typed once


# A money session, the cube off: the first game resigned as a gammon at once, the second
# played out, the third resigned as a single; X exports the session at the fourth's first
# "Your move?".
MONEY_QUITS = [((1, 1), "2"), ((3, 1), "1")]


def exporting_at(game_number: int, acting):
    """`acting`, but X and ENTER at game `game_number`'s first "Your move?"."""
    asked = []

    def exporting(hands: Hands, p) -> bool:
        board_game = p.game
        if board_game is not None and board_game.prompt.entering \
                and board_game.state.match.game_number == game_number:
            if not asked:
                asked.append(True)
                hands.press("x\n")
            return True
        return acting(hands, p)
    return exporting


def test_a_money_session_of_three_games_with_resignations_scores_as_gnubg_reads_it(configure):
    config = configure(match_length=None, cube=False)
    quits = Quits(when=list(MONEY_QUITS))
    seen, player = play_match(config, False, exporting_at(4, quitting(quits)))
    assert [said for *_at, said in quits.answers] == ["accept", "accept"]
    match = player.game.state.match
    print(f"money session: {player.count} frames, {match.score}")
    assert match.is_money and len(match.results) == 3
    assert [result.points for result in match.results][::2] == [2, 1]
    names = match.record.names
    assert gnubg_final_score(config, config / seen.saved) == \
        {names[side]: points for side, points in match.score.items()}
