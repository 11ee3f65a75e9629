"""One game as the scenes share it, Game, in four parts: the table it is played at (the
machine, the dice, the computer's policies, the options), the match and game state (the
position held with the bottom side on roll, the dice shown, the turn typed), the prompt (what
the keys asked for while the computer played, what a click types) and the saving; with the
board drawing every scene shares and the single keys the scenes hear outside a typed line (D,
A, QUIT, ENTER or SPACE to roll). Not the scenes, nor the turn loop (scenes/turn_loop.py)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from game.board import screen as S
from game.files.session import Session
from game.files.settings import Settings
from game.interfaces import Chooser, CubePolicy, Frames
from game.model import rules
from game.model.dice import Dice
from game.model.evaluator import CubeDecision
from game.model.match import Match
from game.model.position import Position
from game.scenes.timing import RATTLE, ROLL_FLICKER_FRAMES, ROLL_FRAMES, WARNING_FRAMES
from game.zx.basic import CODE_ENTER, Basic

# the single keys the scenes hear outside a typed line, as INKEY$ gives them: while the
# computer's play is shown (Game.heard) and at the cube stop before a throw (scenes/cube.py)
DOUBLE_KEYS = (ord("d"), ord("D"))
ADVICE_KEYS = (ord("a"), ord("A"))
QUIT_KEYS = (ord("q"), ord("Q"))  # QUIT begun while the computer plays: resign before the throw
ROLL_KEYS = (CODE_ENTER, ord(" "))  # ENTER or SPACE rolls at the cube stop

ThrownDice = tuple[int, int]
Steps = list[tuple[int, int]]           # typed steps: (from index, die)
# a resumed turn as the save held it: (side on roll, dice or None, the steps typed)
Resumed = tuple[str, ThrownDice | None, Steps]
# a save's turn start: (the position held with the bottom side on roll, side on roll, dice)
TurnStart = tuple[Position, str | None, ThrownDice | None]
# the dice on the board, for redraws: (top face, bottom face, top black, bottom black)
DiceShown = tuple[int | None, int | None, bool, bool]


@dataclass(slots=True)
class Table:
    """What a game is played at, the same all game long: the BASIC layer and the screen, the
    dice, the computer's plays (`chooser`: position with the mover on roll, dice, the
    mover's MatchTerms -> Play) and its cube decisions (`cube_policy`: position, match,
    doubler -> CubeDecision; None: it never doubles and always takes), and the options in
    force."""
    basic: Basic
    screen: S.Screen
    dice: Dice
    chooser: Chooser[rules.Play]
    settings: Settings = field(default_factory=Settings)
    cube_policy: CubePolicy[CubeDecision | None] | None = None


@dataclass(slots=True)
class GameState:
    """The match and this game in it: the position held with the bottom side (the human,
    White) on roll, row 0 = white; the two sides and which of them is typed at the keys; the
    dice on the board; the turn being typed; the turn's start as a save holds it (`at`); a
    resumed turn (`resume`) and its typed steps, made again (`replay`)."""
    match: Match
    position: Position
    bottom: str
    top: str
    typed: dict[str, bool]
    at: TurnStart
    turn: rules.Turn | None = None       # the typed turn in progress (its commands')
    dice_shown: DiceShown | None = None
    resume: Resumed | None = None
    replay: Steps = field(default_factory=list)

    @classmethod
    def begin(cls, settings: Settings, start: Position | None = None,
              match: Match | None = None, resume: Resumed | None = None) -> GameState:
        """A game from `start` (default the usual one) in `match` (default a new money
        session with the options' cube), the sides typed as the options' players say."""
        position = start or Position.start()
        match = match or Match(None, cube=settings.cube)
        bottom, top = match.sides
        players = settings.players
        typed = {bottom: players != "computer-computer", top: players == "human-human"}
        return cls(match, position, bottom, top, typed, (position, None, None), resume=resume)

    @property
    def two_players(self) -> bool:
        return self.typed[self.bottom] and self.typed[self.top]

    def held_for(self, side: str) -> Position:
        """The position held with `side` on roll."""
        return self.position if side == self.bottom else self.position.swapped()

    def typed_turn(self) -> rules.Turn:
        """The turn being typed, for a command at "Your move?" (there is always one then)."""
        if self.turn is None:
            raise RuntimeError("no turn is being typed")
        return self.turn


@dataclass(slots=True)
class Prompt:
    """What the keys have asked for and what a click types: D (`double_wanted`), A
    (`cube_advice_wanted`) or QUIT (`resign_wanted`) heard while the computer played, the
    computer's own resignation offered this game, the demo stopped by a key; at "Your
    move?" (`entering`) a click on the board types keys; what a click on the cube or the
    dice types while a scene waits ({"cube": "d"}; the cube stop adds {"dice": " "}; empty:
    nothing, game/main.py Runner.click); a key that ended a P/I/X message, the next entry's
    first (`typed_ahead`)."""
    entering: bool = False
    board_clicks: dict[str, str] = field(default_factory=dict)
    typed_ahead: str = ""
    double_wanted: bool = False
    cube_advice_wanted: bool = False
    resign_wanted: bool = False
    resign_offered: bool = False
    stopped: bool = False


@dataclass(slots=True)
class Saving:
    """Where the game is kept: `keeper` (the Session; None saves nothing) autosaves the turn
    and forgets the save when the match is over; `export_dir`, where X and the match-over
    page write the .mat (None: the options' folder)."""
    keeper: Session | None = None
    export_dir: str | None = None

    def autosave(self, between_games: bool = False) -> None:
        """Save the turn as it is now (the start, the dice if thrown, the steps typed)."""
        if self.keeper is not None:
            self.keeper.autosave(between_games)

    def tell(self, kind: str, what: dict[str, object]) -> None:
        """One line for the --trace (a question put to the person, ...), if there is one."""
        if self.keeper is not None:
            self.keeper.tell(kind, what)

    def forget(self) -> None:
        if self.keeper is not None:
            self.keeper.forget()

    def take_unsaid(self) -> str | None:
        """The words of a save failure not yet said on the screen (once), else None."""
        return self.keeper.take_unsaid() if self.keeper is not None else None


class Game:
    """One game as the scenes share it: its `table`, `state`, `prompt` and `saving`, and
    `on_event`, a listener a test installs that hears each throw, play and cube action in
    words ("opening 3 1", "human 31 h3 f1", "computer doubles to 2"; nothing is kept)."""
    __slots__ = ("table", "state", "prompt", "saving", "on_event")

    def __init__(self, table: Table, saving: Saving | None = None, *,
                 start: Position | None = None, match: Match | None = None,
                 resume: Resumed | None = None) -> None:
        self.table = table
        self.state = GameState.begin(table.settings, start, match, resume)
        self.prompt = Prompt()
        self.saving = saving or Saving()
        self.on_event: Callable[[str], None] | None = None

    def happened(self, words: str) -> None:
        """Tell `on_event`, if a listener is installed, what just happened."""
        if self.on_event is not None:
            self.on_event(words)

    def say_save_failure(self) -> Frames:
        """A save that could not be written (a folder that cannot be written, a full disk)
        is said once on the message line, for as long as a warning stays; play goes on."""
        words = self.saving.take_unsaid()
        if words:
            self.message(words)
            yield from self.table.basic.pause(WARNING_FRAMES)

    # ---------- showing ----------
    def show(self, position_bottom: Position) -> None:
        self.state.position = position_bottom
        self.table.screen.show(S.view_of(position_bottom))

    def show_for(self, side: str, position: Position) -> None:
        """Show a position held with `side` on roll."""
        self.show(position if side == self.state.bottom else position.swapped())

    def message(self, words: str) -> None:
        self.table.screen.message(words)

    def draw_dice(self, top: int | None, bottom: int | None, black: bool,
                  bottom_black: bool | None = None) -> None:
        bottom_black = black if bottom_black is None else bottom_black
        self.state.dice_shown = (top, bottom, black, bottom_black)
        self.table.screen.draw_dice(top, bottom, black, bottom_black)

    def draw_cube(self) -> None:
        """The doubling cube on the board: its value, by its owner's tray or centred (none
        while the cube is switched off)."""
        m = self.state.match
        if m.cube_enabled:
            self.table.screen.draw_cube(m.cube_value, m.cube_owner)
        else:
            self.table.screen.draw_cube(None)

    def apply_style(self) -> None:
        """Board style, swapped tokens, mirrored board from the options (screen.py)."""
        self.table.screen.apply_settings(self.table.settings)

    def redraw(self) -> None:
        """The board, dice, cube after a full-screen page (the message line is the caller's)."""
        self.table.screen.draw_board(S.view_of(self.state.position))
        if self.state.dice_shown:
            self.table.screen.draw_dice(*self.state.dice_shown)
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

    # ---------- the dice tumbling ----------
    def tumble(self, both_black: bool | None = None) -> Frames:
        dice = self.table.dice
        for frame in range(ROLL_FRAMES):
            if frame % ROLL_FLICKER_FRAMES == 0:
                top_black = True if both_black is None else both_black
                bottom_black = False if both_black is None else both_black
                self.table.screen.draw_dice(dice.flicker(), dice.flicker(),
                                            top_black, bottom_black)
                self.table.basic.beep(*RATTLE)
            yield

    # ---------- keys heard while the computer plays ----------
    def heard(self, key: int | None, side: str) -> None:
        """A key during `side`'s shown play: D asks for a double before the next throw, A
        for the cube advice then, Q (QUIT) the resignation question (none of them under the
        1983 rules); in the demo any key stops it. Others are dropped."""
        if key is None:
            return
        state, prompt = self.state, self.prompt
        nxt = state.match.other(side)
        if not state.typed[state.bottom]:
            prompt.stopped = True
        elif self.table.settings.rules_1983:
            return                           # the card has no cube and no advice
        elif key in DOUBLE_KEYS and state.typed[nxt]:
            prompt.double_wanted = True
        elif key in ADVICE_KEYS and state.typed[nxt]:
            prompt.cube_advice_wanted = True
        elif key in QUIT_KEYS and state.typed[nxt]:
            prompt.resign_wanted = True
