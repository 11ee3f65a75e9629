"""A person playing a whole match in the real window (issue 52), for the whole-match tests: the
settings, the computer's scripted cube, the hands on the keys or the mouse (keys held in host
time, clicks on character cells), what the person saw and did, their choice at each screen,
the match played to its export, and its final score as GNU Backgammon reads the .mat. Not a
test."""
import time
from dataclasses import dataclass, field

import pygame

from game.board import clicks
from game.board import screen as S
from game.model import evaluator, rules
from game.model.evaluator import CubeDecision
from game.model.match import COMPUTER, HUMAN
from game.model.position import Position
from game.scenes import cube
from spectrum.screen_text import line_text, screen_text
from windowdriver import Player

SEED = 3
LEVEL = 1                     # the computer's, through USR
HUMAN_LEVEL = 3               # the person plays the evaluator's 0-ply best
SETTINGS = {"match_length": 3, "speed": "instant", "sound": False, "who_starts": "roll",
            "cube": True, "cube_stop": "always"}
HOLD_S = 0.03                 # a key is held this long in host time ...
HOLD_FRAMES = (2, 20)         # ... and for at least 2 frames, at most 20 (the ROM's repeat
                              # starts after 35: typing at F10 speed is the window's fix)
GAP_FRAMES = 4                # after a key or a click, before the next (the mouse's typed
                              # character is held 3 frames, then let go 3)
MAX_FRAMES = 40000
STOP = "ENTER rolls, D doubles"
KEYS = {"\n": pygame.K_RETURN, " ": pygame.K_SPACE}


def scripted_cube(position, match, doubler):
    """The computer takes every double and redoubles once, when it holds the cube at 2;
    it never doubles otherwise (a cube decision is asked of it for both)."""
    redouble = doubler == COMPUTER and match.offered_by is None and match.cube_value == 2 \
        and match.cube_owner == COMPUTER
    return CubeDecision(redouble, True, False, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0)


@dataclass
class Seen:
    """What the script saw and did, for the asserts."""
    stops: list = field(default_factory=list)        # (game number, crawford) at each stop
    doubled: bool = False
    dropped: bool = False
    over_page: list = field(default_factory=list)    # the match-over page's lines
    saved: str = ""
    resignations_accepted: int = 0
    keys_pressed: int = 0
    plan: list = field(default_factory=list)         # the steps of the play chosen
    crawford_turns: int = 0                          # the person's turns in the Crawford game
    actions: list = field(default_factory=list)      # what is still to be done, in order
    wait_frames: int = 0
    release_at: tuple = ()                           # (key, frame, host time) of a held key
    held_frames: list = field(default_factory=list)  # how many frames each key was held
    read_back: list = field(default_factory=list)    # (typed, the message line then)


class Hands:
    """A person's hands on the window: keys pressed and let go in host time, or clicks on
    character cells; one action at a time, with a gap after each."""

    def __init__(self, player: Player, mouse: bool, hold_s: float = HOLD_S,
                 hold_frames: tuple[int, int | None] = HOLD_FRAMES):
        """hold_frames: at least, at most (None: as long as hold_s lasts, F10 or not)."""
        self.player, self.mouse, self.seen = player, mouse, Seen()
        self.hold_s, self.hold_frames = hold_s, hold_frames

    def busy(self) -> bool:
        """Runs the queued actions; True while one is under way."""
        seen = self.seen
        if seen.release_at:
            key, frame, start = seen.release_at
            held, (least, most) = self.player.count - frame, self.hold_frames
            if most is not None and held >= most or (held >= least and
                                                     time.perf_counter() - start >= self.hold_s):
                pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0))
                seen.held_frames.append(held)
                seen.release_at, seen.wait_frames = (), GAP_FRAMES
            return True
        if self.player.loop.typist.busy:         # a key's stroke still reaching the 48K
            seen.wait_frames = GAP_FRAMES            # then the program's frames to take it
            return True
        if seen.wait_frames:
            seen.wait_frames -= 1
            return True
        if not seen.actions:
            return False
        kind, what = seen.actions.pop(0)
        if kind == "key":
            seen.keys_pressed += 1
            key = KEYS.get(what) or pygame.key.key_code(what)
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=what))
            seen.release_at = (key, self.player.count, time.perf_counter())
        elif kind == "read":
            seen.read_back.append((what, line_text(self.player.machine.memory, S.MESSAGE_ROW)))
        else:
            self.player.click_cell(*what)
            seen.wait_frames = GAP_FRAMES
        return True

    def press(self, text: str) -> None:
        self.seen.actions += [("key", ch) for ch in text]

    def read(self, typed: str) -> None:
        """The message line noted once the keys before have reached the 48K."""
        self.seen.actions.append(("read", typed))

    def click(self, col: int, row: int) -> None:
        self.seen.actions.append(("click", (col, row)))

    def answer(self, key: str, line: str, row: int = S.MESSAGE_ROW) -> None:
        """A key that a line of the screen offers: pressed, or its word there clicked."""
        if not self.mouse:
            self.press(key)
            return
        spot = next((first for first, _past, typed in clicks.hot_keys(line) if typed == key),
                    None)
        assert spot is not None, f"no {key!r} to click on {line!r}"
        self.click(spot, row)

    def enter_step(self, screen, from_index: int, die: int) -> None:
        """One step of the human's play: "h3" and ENTER, or the point, the die, the line."""
        letter = Position.letter_of_index(from_index)
        if not self.mouse:
            self.press(f"{letter}{die}\n")
            return
        if letter == S.BAR_LETTER:
            col, row = screen.column(S.BAR_COL, S.BAR_COLS), 5
        else:
            col, top = screen.point_cell(S.POINT_LETTERS.index(letter) + 1)
            row = 5 if top else 17
        die_col = screen.column(S.DIE_COL, S.DIE_CELLS)
        die_row = next(S.TOP_DIE_ROW if top_die else S.BOTTOM_DIE_ROW
                       for top_die, (face, _black) in screen.dice.items() if face == die)
        self.click(col, row)
        self.click(die_col + 1, die_row + 1)
        self.click(0, S.MESSAGE_ROW)


def planned_step(seen: Seen, board_game) -> tuple[int, int]:
    """The next step of the play the person chose at the turn's start: the evaluator's
    best at HUMAN_LEVEL, typed step by step (from index, die)."""
    turn = board_game.state.turn
    if not turn.made or not seen.plan:
        seen.crawford_turns += board_game.state.match.crawford_game
        best = evaluator.best_play(turn.start.position_id, turn.dice, HUMAN_LEVEL)
        play = next(p for p in rules.legal_plays(turn.start, turn.dice)
                    if p.after.position_id == best)
        seen.plan = [(step.from_index, step.die) for step in play.steps]
    return seen.plan[len(turn.made)]


def act(hands: Hands, p: Player) -> bool:
    """The person's next move from what the screen shows; False once the .mat is saved."""
    seen, board_game = hands.seen, p.game
    memory = p.machine.memory
    message = line_text(memory, S.MESSAGE_ROW)
    if board_game is not None and board_game.prompt.entering:
        hands.enter_step(board_game.table.screen, *planned_step(seen, board_game))
    elif STOP in message:
        m = board_game.state.match
        assert cube.may_double(board_game, HUMAN), "a stop where no double counts"
        seen.stops.append((m.game_number, m.crawford_game))
        if not seen.doubled and m.cube_owner is None:
            seen.doubled = True
            if hands.mouse:
                col, row = S.cube_cell(None, board_game.table.screen.mirrored)
                hands.click(col + 1, row)                # the cube in the middle
            else:
                hands.press("d")
        elif hands.mouse:
            die_col = board_game.table.screen.column(S.DIE_COL, S.DIE_CELLS)
            hands.click(die_col + 1, S.BOTTOM_DIE_ROW + 1)
        else:
            hands.press(" " if len(seen.stops) % 2 else "\n")   # SPACE rolls as ENTER does
    elif "Take? (Y/N)" in message:
        seen.dropped = True
        hands.answer("n", message)
    elif "resign" in message and "Accept? (Y/N)" in message:
        seen.resignations_accepted += 1          # the computer's own, when it cannot win
        hands.answer("y", message)
    elif "Export the match" in message:
        hands.answer("y", message)
    elif "Saved match-" in message:
        seen.saved = message.split()[1]
        return False
    elif "MATCH OVER" in line_text(memory, 0):
        seen.over_page = screen_text(memory)
        hands.answer("\n", line_text(memory, S.ROWS - 1))
    elif "Press any key" in message or "ENTER" in message:
        if hands.mouse:
            hands.click(0, S.MESSAGE_ROW)
        else:
            hands.press("\n")
    elif board_game is None:                           # the instructions: no, thanks
        asked = [(row, line) for row, line in enumerate(screen_text(memory)) if "(Y/N)" in line]
        if asked:
            hands.answer("n", asked[0][1], asked[0][0])
    return True


def play_match(config, mouse: bool, acting=act, frames: int = MAX_FRAMES,
               **hands_options) -> tuple[Seen, Player]:
    """The match played in the window by `acting(hands, player)` (act: as above) until it
    returns False, in at most `frames` frames; hands_options as Hands takes them."""
    player = Player(seed=SEED, frames=frames, keys="")
    player.play_with(SEED, scripted_cube, LEVEL, config)
    hands = Hands(player, mouse, **hands_options)

    def script(p):
        return hands.busy() or acting(hands, p)
    player.run(script)
    assert hands.seen.saved, f"the match did not end in {player.count} frames:\n" \
        + "\n".join(screen_text(player.machine.memory))
    return hands.seen, player


def gnubg_final_score(tmp_path, mat_path) -> dict:
    """The match's final score by player name as `gnubg -t` reads the .mat: its own export
    of what it read, the last game's scores plus that game's points."""
    from game.matchfiles.matfile import parse_mat
    from gnubg_tools import gnubg_binary, gnubg_round_trip
    gnubg_binary()                                  # skips (fails in CI) without it
    theirs = tmp_path / "gnubg.mat"
    code, output = gnubg_round_trip(mat_path, theirs, tmp_path)
    assert code == 0, output
    last = parse_mat(theirs.read_text()).games[-1]
    score = dict(zip(last.names, last.scores, strict=True))
    player, _kind, points = next(a for a in last.actions if a[1] == "win")
    score[last.names[player]] += points
    return score


def page_score_is_gnubgs(seen: Seen, player: Player, config) -> None:
    """The match-over page's score, by name, is the one gnubg reads from the .mat."""
    page = seen.over_page
    assert page, "the match-over page was never seen"
    verdict, score_line = page[7].strip(), page[10].strip()
    won, lost = int(score_line.split()[0]), int(score_line.split()[-1])
    assert "a match to 3" in page[12] and won >= 3 > lost
    names = player.game.state.match.record.names
    winner = names[HUMAN if verdict.startswith("YOU") else COMPUTER]
    loser = next(name for name in names.values() if name != winner)
    assert gnubg_final_score(config, config / seen.saved) == {winner: won, loser: lost}
