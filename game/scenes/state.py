"""One game's state and the board drawing every scene shares: the position (the bottom
side on roll), the dice and cube shown, the dice thrown, the keys heard while the computer
plays, and Game.play, the turn loop over the scenes. Not the scenes themselves."""
from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from game import menus
from game.board import screen as S
from game.files.settings import Settings
from game.interfaces import Chooser, CubePolicy, Frames, Screen
from game.model import rules
from game.model.dice import Dice
from game.model.match import Match
from game.model.position import Position
from game.scenes import computer_turn, cube, human_turn, opening, resign
from game.scenes.timing import (
    ADVICE_KEYS,
    DOUBLE_KEYS,
    QUIT_KEYS,
    RATTLE,
    ROLL_FLICKER_FRAMES,
    ROLL_FRAMES,
    WARNING_FRAMES,
)
from game.words import say
from game.zx.basic import Basic


class Game:
    """One game's state: the position held with the bottom side (the human, White) on roll,
    row 0 = white; what is on screen; the match it belongs to and the options in force."""

    def __init__(self, basic: Basic, screen: Screen, dice: Dice, chooser: Chooser,
                 start: Position | None = None, match: Match | None = None,
                 settings: Settings | None = None, cube_policy: CubePolicy | None = None,
                 resume: tuple[str, tuple[int, int] | None, list[Any]] | None = None,
                 export_dir: str | None = None, keeper: Any = None) -> None:
        self.basic = basic
        self.screen = screen
        self.dice = dice
        self.choose = chooser            # (position with the mover on roll, dice, match) -> Play
        self.position = start or Position.start()
        # a listener a test installs: hears each throw, play and cube action in words
        # ("opening 3 1", "human 31 h3 f1", "computer doubles to 2"); nothing is kept here
        self.on_event: Callable[[str], None] | None = None
        self.turn: rules.Turn | None = None     # the typed turn in progress (its commands')
        self.settings = settings or Settings()
        self.match = match or Match(None, cube=self.settings.cube)
        self.cube_policy = cube_policy   # (position, match, doubler) -> CubeDecision, or None
        self.resume = resume             # (side on roll, dice or None, typed steps) saved
        self.replay: list[Any] = []      # the resumed turn's typed steps, made again
        self.keeper = keeper             # autosave(between_games), forget(): the Session
        self.export_dir = export_dir
        self.bottom, self.top = self.match.sides
        players = self.settings.players
        self.typed = {self.bottom: players != "computer-computer",
                      self.top: players == "human-human"}
        self.double_wanted = False       # D pressed before this side's roll
        self.cube_advice_wanted = False  # A pressed then: cube advice, then the D/ENTER prompt
        # (top face, bottom face, black) for redraws
        self.dice_shown: tuple[int | None, int | None, bool, bool] | None = None
        # for a save: position, side on roll, dice
        self.at: tuple[Position, str | None, tuple[int, int] | None] = (self.position, None, None)
        self.stopped = False             # the demo was stopped by a key
        self.entering = False            # at "Your move?": a click on the board types keys
        # what a click on the cube or the dice types while a scene waits ({"cube": "d"}; the
        # cube stop adds {"dice": " "}); empty: they type nothing (game/main.py Runner.click)
        self.board_clicks: dict[str, str] = {}
        self.typed_ahead = ""            # a key that ended a P/I/X message: the next entry's
        self.resign_offered = False      # the computer has offered to resign this game
        self.resign_wanted = False       # Q (QUIT) typed while the computer played

    def happened(self, words: str) -> None:
        """Tell `on_event`, if a listener is installed, what just happened."""
        if self.on_event is not None:
            self.on_event(words)

    def autosave(self, between_games: bool = False) -> None:
        """Save the turn as it is now (the start, the dice if thrown, the steps typed)."""
        if self.keeper is not None:
            self.keeper.autosave(between_games)

    def say_save_failure(self) -> Frames:
        """A save that could not be written (a folder that cannot be written, a full disk)
        is said once on the message line, for as long as a warning stays; play goes on."""
        words = self.keeper.take_unsaid() if self.keeper is not None else None
        if words:
            self.message(words)
            yield from self.basic.pause(WARNING_FRAMES)

    def forget_save(self) -> None:
        if self.keeper is not None:
            self.keeper.forget()

    @property
    def two_players(self) -> bool:
        return self.typed[self.bottom] and self.typed[self.top]

    # ---------- showing ----------
    def show(self, position_bottom: Position) -> None:
        self.position = position_bottom
        self.screen.show(S.view_of(position_bottom))

    def show_for(self, side: str, position: Position) -> None:
        """Show a position held with `side` on roll."""
        self.show(position if side == self.bottom else position.swapped())

    def held_for(self, side: str) -> Position:
        return self.position if side == self.bottom else self.position.swapped()

    def message(self, words: str) -> None:
        self.screen.message(words)

    def draw_dice(self, top: int | None, bottom: int | None, black: bool,
                  bottom_black: bool | None = None) -> None:
        bottom_black = black if bottom_black is None else bottom_black
        self.dice_shown = (top, bottom, black, bottom_black)
        self.screen.draw_dice(top, bottom, black, bottom_black)

    def draw_cube(self) -> None:
        """The doubling cube on the board: its value, by its owner's tray or centred (none
        while the cube is switched off)."""
        m = self.match
        if m.cube_enabled:
            self.screen.draw_cube(m.cube_value, m.cube_owner)
        else:
            self.screen.draw_cube(None)

    def apply_style(self) -> None:
        """Board style, swapped tokens, mirrored board from the options (screen.py)."""
        self.screen.apply_settings(self.settings)

    def redraw(self) -> None:
        """The board, dice, cube after a full-screen page (the message line is the caller's)."""
        self.screen.draw_board(S.view_of(self.position))
        if self.dice_shown:
            self.screen.draw_dice(*self.dice_shown)
        self.draw_cube()
        self.message("")

    def show_turn(self, turn: rules.Turn) -> None:
        position = turn.position
        self.show(position if turn.mover_is_human else position.swapped())
        self.mark_dice(turn)

    def mark_dice(self, turn: rules.Turn) -> None:
        """Blank a die once it is used up (a double's top die after two steps)."""
        d1, d2 = turn.dice
        left = list(turn.dice_left)
        if d1 == d2:
            top = d1 if len(left) > 2 else None
            bottom = d2 if left else None
        else:
            top = d1 if d1 in left else None
            bottom = d2 if d2 in left else None
        self.draw_dice(top, bottom, not turn.mover_is_human)

    # ---------- the dice ----------
    def roll(self, side: str) -> Generator[None, None, Any]:
        """Throw two dice for a turn (or ask them, with Set dice on), in the mover's colour.
        Returns the dice, or the GameResult of a resignation (QUIT typed for them) accepted."""
        black = side == self.top
        if self.settings.set_dice:
            while True:
                typed = yield from menus.ask_dice(self.basic, side, allow_quit=True)
                if typed != "quit":
                    break
                ended = yield from resign.quit_typed(self, side)
                if ended is not None:
                    return ended
            d1, d2 = typed
        else:
            self.message(say("throw", side))
            yield from self.tumble(both_black=black)
            d1, d2 = self.dice.pair()
        self.draw_dice(d1, d2, black)
        return d1, d2

    def tumble(self, both_black: bool | None = None) -> Frames:
        for frame in range(ROLL_FRAMES):
            if frame % ROLL_FLICKER_FRAMES == 0:
                top_black = True if both_black is None else both_black
                bottom_black = False if both_black is None else both_black
                self.screen.draw_dice(self.dice.flicker(), self.dice.flicker(),
                                      top_black, bottom_black)
                self.basic.beep(*RATTLE)
            yield

    # ---------- keys heard while the computer plays ----------
    def heard(self, key: int | None, side: str) -> None:
        """A key during `side`'s shown play: D asks for a double before the next throw, A
        for the cube advice then, Q (QUIT) the resignation question (none of them under the
        1983 rules); in the demo any key stops it. Others are dropped."""
        if key is None:
            return
        nxt = self.match.other(side)
        if not self.typed[self.bottom]:
            self.stopped = True
        elif self.settings.rules_1983:
            return                           # the card has no cube and no advice
        elif key in DOUBLE_KEYS and self.typed[nxt]:
            self.double_wanted = True
        elif key in ADVICE_KEYS and self.typed[nxt]:
            self.cube_advice_wanted = True
        elif key in QUIT_KEYS and self.typed[nxt]:
            self.resign_wanted = True

    # ---------- a whole game ----------
    def play(self) -> Frames:
        """Play one game; returns the match's GameResult (a resignation accepted too), or
        'quit' when QUIT was typed for the opening throw, with nothing yet at stake (or
        'stop' when a key stopped the demo)."""
        m = self.match
        if not m.in_game:
            m.start_game()
        self.apply_style()
        bottom, top = m.sides
        self.screen.numbers = (say("who", bottom), say("who", top),
                               (m.score[bottom], m.score[top]) if m.length else None)
        self.screen.draw_board(S.view_of(self.position))
        self.draw_cube()
        self.cube_advice_wanted = False
        if self.resume:
            side, dice, self.replay = self.resume
            self.resume = None
            if dice:
                self.draw_dice(dice[0], dice[1], side == self.top)
        else:
            side, dice = yield from opening.first_turn(self)
            if side == "quit":
                return "quit"
        return (yield from self.turns(side, dice))

    def turns(self, side: str, dice: tuple[int, int] | None) -> Frames:
        """The turns from `side`'s (dice None: it throws its own) to the end of the game."""
        m = self.match
        while True:
            m.start_turn(side)
            self.at = (self.position, side, dice)
            if dice is None:
                self.autosave()                   # the start of the turn
                yield from self.say_save_failure()
                result = yield from resign.before_throw(self, side, cube.before_roll)
                if result is not None:
                    return result
                rolled = yield from self.roll(side)
                if resign.result_for(rolled) or rolled == "quit":   # QUIT for the dice
                    return rolled
                dice = rolled
                self.at = (self.position, side, dice)
            m.dice_rolled()
            if self.typed[side]:                  # saved once the turn is set up
                steps = yield from human_turn.play(self, dice, side)
                if resign.result_for(steps) or steps == "quit":   # resigned, or the
                    return steps                  # 1983 rules' QUIT: the game left
            else:
                self.autosave()                   # the computer's dice
                yield from self.say_save_failure()
                steps = yield from computer_turn.play(self, dice, side)
            m.record_move(side, dice, steps)
            kind = rules.game_result(self.position)
            if kind:
                return m.end_game(self.bottom if kind > 0 else self.top, abs(kind))
            if self.stopped:
                return "stop"
            side, dice = m.other(side), None
            self.turn = None
