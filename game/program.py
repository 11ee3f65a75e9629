"""The program that runs on the 48K, as the 1983 BASIC listing did: instructions, the opening
throw, the human's and the computer's turns, the end of a game, QUIT. A generator: one
`yield` is one 50 Hz frame. Rules come from game/rules.py; drawing from game/screen.py."""
import os
import time
from types import SimpleNamespace

from game import commands, instructions, menus, rules
from game import screen as S
from game.basic import CODE_ENTER, Basic
from game.dice import Dice
from game.errors import BackgammonError, EntryError, IllegalMoveError
from game.match import BLACK, COMPUTER, HUMAN, WHITE, Match, opening_throw
from game.position import BAR, POINT_LETTERS, Position, parse_entry
from game.settings import Settings

# --- timings, in 50 Hz frames, and sounds (ms, Hz) ---
ROLL_FRAMES = 16                 # dice tumbling before they settle
ROLL_FLICKER_FRAMES = 2          # a new face every 2 frames
RATTLE = (4, 2200)               # one click of the dice rattle
STEP_PAUSE_FRAMES = 12           # between the computer's men
STEP_BEEP = (25, 880)            # a man put down
COMPUTER_BEEP = (35, 587)
READ_FRAMES = 100                # time to read the computer's play (a key cuts it short)
OPENING_READ_FRAMES = 75
DEMO_NEXT_GAME_FRAMES = 150          # the demo's pause between games (3 s), any key stops it
WIN_TUNE = ((120, 523), (120, 659), (120, 784), (300, 1047))
LOSE_TUNE = ((200, 392), (200, 330), (400, 262))
DEFAULT_LEVEL = 5                # as game/settings.py: net 2-ply within a time budget
KIND_WORDS = {1: "a single game", 2: "a gammon", 3: "a backgammon"}
RESULT_WORDS = {k: f"{w} ({k} point{'s' * (k > 1)})" for k, w in KIND_WORDS.items()}
SPEED_PAUSE = {"steps": STEP_PAUSE_FRAMES, "quick": 2, "instant": 0}
SPEED_READ = {"steps": READ_FRAMES, "quick": 50, "instant": 25}
DOUBLE_KEYS = (ord("d"), ord("D"))
ADVICE_KEYS = (ord("a"), ord("A"))


# A few words (at most 19 columns, + ". Press ENTER") for each reason rules.Turn gives, found
# by a phrase of its sentence: the message line has no room for the sentence itself.
STEP_WORDS = (
    ("already played your", "No {die} to play"),
    ("did not throw", "No {die} to play"),
    ("enter him first", "Bar man goes first"),
    ("no man on the bar", "No man on z"),
    ("no man on point", "No man on {point}"),
    ("held by two or more", "Point {to} is blocked"),
    ("until all your men", "Not all men home"),
    ("higher point", "A man stands higher"),
    ("leaves a die unplayed", "Must use both dice"),
    ("must be the higher", "Play the higher die"),
    ("already complete", "Move complete"),
)
PRESS_ENTER = ". Press ENTER"


def view_of(position: Position) -> S.BoardView:
    """What the screen shows of a position held with the HUMAN on roll (row 0 = white)."""
    board = position.board
    points = [0] * 25
    for p in range(1, 25):
        white = board[p - 1]
        black = board[25 + 24 - p]
        points[p] = white if white else -black
    off_white, off_black = position.borne_off()
    return S.BoardView(points, board[BAR], board[25 + BAR], off_white, off_black)


def entry_words(text: str) -> str:
    """A few words on why a typed line is not a move at all."""
    squeezed = text.strip()
    if not squeezed:
        return "Type e.g. k4 or 4k"
    if len(squeezed) == 2:
        a, b = squeezed.lower()
        letter, digit = (a, b) if a.isalpha() else (b, a)
        if letter.isalpha() and digit.isdigit():
            if letter not in POINT_LETTERS + "z":
                return f"There is no point {letter}"
            return "A die shows 1 to 6"
    return "Not a move, e.g. k4"


def step_words(why: str, from_index: int, die: int) -> str:
    """rules.Turn's reason for refusing a step, in a few words."""
    point = Position.letter_of_index(from_index)
    to = Position.letter_of_index(from_index - die) if 0 <= from_index - die < BAR else "?"
    for phrase, words in STEP_WORDS:
        if phrase in why:
            return words.format(die=die, point=point, to=to)
    return "Not allowed"


def same_man_off_with_higher(turn: rules.Turn, from_index: int, die: int, why: str):
    """Rule 4 asks for the higher die when only one can be played; when the typed lower die
    would take the same man off the same point as the higher (the last man home, e.g. a1 with
    3-1), the player meant that: the higher die, or None when the refusal stands."""
    if "must be the higher" not in why:
        return None
    higher = max(turn.dice_left)
    if higher > die and from_index - die < 0:       # both dice bear this man off
        return higher
    return None


def play_words(steps, mover_is_human: bool) -> str:
    """A play in the letter notation: each man's point and die, e.g. 'x6 s4'."""
    return " ".join(f"{Position.letter_of_index(s.from_index, mover_is_human)}{s.die}"
                    for s in steps)


COMMANDS = {"H": "help", "HELP": "help", "O": "options", "S": "score", "P": "pips",
            "I": "ids", "A": "advice", "T": "takeback", "U": "undo", "D": "double",
            "DOUBLE": "double", "X": "export"}
INFO_FRAMES = 150                # a message-line answer (P, I) stays this long (a key ends it)


def result_words(kind: int | str, points: int, loser: str = COMPUTER) -> str:
    """'a gammon (4 points)' for a game played out; a drop reads 'I drop (1 point)'."""
    if kind == "drop":
        what = {COMPUTER: "I drop", HUMAN: "you drop"}.get(loser, f"{loser.capitalize()} drops")
        return f"{what} ({points} point{'s' * (points != 1)})"
    what = KIND_WORDS[kind if isinstance(kind, int) else
                      {"single": 1, "gammon": 2, "backgammon": 3}[kind]]
    return f"{what} ({points} point{'s' * (points != 1)})"


def evaluator_cube(settings: Settings):
    """The computer's cube decisions from the evaluator (game/evaluator.py cube_decision) at
    the level in the options, with the match score through its match equity table.
    Returns decide(position with the doubler on roll, match, doubler) -> CubeDecision."""
    def decide(position: Position, match: Match, doubler: str):
        from game import evaluator
        return evaluator.cube_decision(position, settings.level, **cube_terms(match, doubler))
    return decide


def cube_terms(match: Match, doubler: str) -> dict:
    """The cube and match score as the evaluator takes them, for `doubler` on roll."""
    owner = 0 if match.cube_owner is None else (1 if match.cube_owner == doubler else 2)
    terms = {"cube_value": match.cube_value, "cube_owner": owner}
    if match.length:
        terms.update(match_to=match.length, away_me=match.away(doubler),
                     away_opp=match.away(match.other(doubler)),
                     crawford=1 if match.crawford_game else (2 if match.post_crawford else 0))
    return terms


def play_match(match: Match, mover: str):
    """The match context of `mover`'s play as the evaluator takes it (ranked_plays' match=):
    None in money play, else (length, away_me, away_opp, crawford, cube)."""
    if not match.length:
        return None
    terms = cube_terms(match, mover)
    return (terms["match_to"], terms["away_me"], terms["away_opp"], terms["crawford"],
            terms["cube_value"])


def usr_cube(basic: Basic, level, warm_up=None):
    """The computer's cube decisions through the same door as its plays: the request (job
    CUBE, the position with the doubler on roll, the cube, the match score) POKEd at PARAMS,
    USR, the answer PEEKed back. `level`: a number or a function giving it. None when the
    machine code's symbols are not there."""
    from game import evaluator
    try:
        entry, params = basic.addr("USR_ENTRY"), basic.addr("PARAMS")
    except KeyError:
        return None
    install_usr_trap(basic, entry, params)

    def decide(position: Position, match: Match, doubler: str):
        if warm_up is not None:
            warm_up.join()
        now = level() if callable(level) else level
        request = evaluator.encode_request(evaluator.JOB_CUBE, position, (0, 0), now,
                                           **cube_terms(match, doubler))
        for offset, value in enumerate(request):
            basic.poke(params + offset, value)
        status = basic.usr(entry)
        answer = evaluator.decode_answer(basic.memory, params)
        if status != 0 or answer.get("status") or "take" not in answer:
            return NO_CUBE_ACTION                   # the door refused: no double, a take
        return SimpleNamespace(**answer)
    return decide


NO_CUBE_ACTION = SimpleNamespace(double=False, take=True, too_good=False)


class Game:
    """One game's state: the position held with the bottom side (the human, White) on roll,
    row 0 = white; what is on screen; the match it belongs to and the options in force."""

    def __init__(self, basic: Basic, screen: S.Screen, dice: Dice, chooser,
                 start: Position | None = None, match: Match | None = None,
                 settings: Settings | None = None, cube_policy=None, resume=None,
                 export_dir=None):
        self.basic = basic
        self.screen = screen
        self.dice = dice
        self.choose = chooser            # (position with the mover on roll, dice) -> Play
        self.position = start or Position.start()
        self.log: list[str] = []         # what happened, for tests and replays
        self.turn: rules.Turn | None = None
        self.settings = settings or Settings()
        self.match = match or Match(None, cube=self.settings.cube)
        self.cube_policy = cube_policy   # (position, match, doubler) -> CubeDecision, or None
        self.resume = resume             # (side on roll, dice or None) from a saved game
        self.export_dir = export_dir
        self.bottom, self.top = self.match.sides
        players = self.settings.players
        self.typed = {self.bottom: players != "computer-computer",
                      self.top: players == "human-human"}
        self.double_wanted = False       # D pressed before this side's roll
        self.cube_advice_wanted = False  # A pressed then: cube advice, then the D/ENTER prompt
        self.dice_shown = None           # (top face, bottom face, black) for redraws
        self.at = (self.position, None, None)     # for a save: position, side on roll, dice
        self.stopped = False             # the demo was stopped by a key
        self.typed_ahead = ""            # a key that ended a P/I/X message: the next entry's

    # ---------- words for the sides ----------
    @property
    def two_players(self) -> bool:
        return self.typed[self.bottom] and self.typed[self.top]

    # ---------- showing ----------
    def show(self, position_bottom: Position) -> None:
        self.position = position_bottom
        self.screen.show(view_of(position_bottom))

    def show_for(self, side: str, position: Position) -> None:
        """Show a position held with `side` on roll."""
        self.show(position if side == self.bottom else position.swapped())

    def held_for(self, side: str) -> Position:
        return self.position if side == self.bottom else self.position.swapped()

    def message(self, words: str) -> None:
        self.screen.message(words)

    def draw_dice(self, top, bottom, black: bool, bottom_black: bool | None = None) -> None:
        bottom_black = black if bottom_black is None else bottom_black
        self.dice_shown = (top, bottom, black, bottom_black)
        self.screen.draw_dice(top, bottom, black, bottom_black)

    def draw_cube(self) -> None:
        """The doubling cube on the board: its value, by its owner's tray or centred (none
        while the cube is switched off)."""
        m = self.match
        if not hasattr(self.screen, "draw_cube"):
            return
        if m.cube_enabled:
            self.screen.draw_cube(m.cube_value, m.cube_owner)
        else:
            self.screen.draw_cube(None)

    def apply_style(self) -> None:
        """Board style, swapped tokens, mirrored board from the options (screen.py)."""
        if hasattr(self.screen, "apply_settings"):
            self.screen.apply_settings(self.settings)

    def redraw(self) -> None:
        """The board, dice, cube after a full-screen page (the message line is the caller's)."""
        self.screen.draw_board(view_of(self.position))
        if self.dice_shown:
            self.screen.draw_dice(*self.dice_shown)
        self.draw_cube()
        self.message("")

    def roll(self, side: str):
        """Throw two dice for a turn (or ask them, with Set dice on), in the mover's colour.
        Returns the dice, or 'quit' when QUIT was typed for them."""
        black = side == self.top
        if self.settings.set_dice:
            typed = yield from menus.ask_dice(self.basic, side, allow_quit=True)
            if typed == "quit":
                return "quit"
            d1, d2 = typed
        else:
            self.message({HUMAN: "Your throw", COMPUTER: "My throw"}.get(
                side, f"{side.capitalize()}'s throw"))
            yield from self.tumble(both_black=black)
            d1, d2 = self.dice.pair()
        self.draw_dice(d1, d2, black)
        return d1, d2

    def tumble(self, both_black: bool | None = None):
        for frame in range(ROLL_FRAMES):
            if frame % ROLL_FLICKER_FRAMES == 0:
                top_black = True if both_black is None else both_black
                bottom_black = False if both_black is None else both_black
                self.screen.draw_dice(self.dice.flicker(), self.dice.flicker(),
                                      top_black, bottom_black)
                self.basic.beep(*RATTLE)
            yield

    # ---------- the opening throw (rule 1) ----------
    def opening(self):
        """One die each, the top die the computer's, the bottom the human's; a tie throws
        again after ENTER. Returns (top_starts, top, bottom), or 'quit' (QUIT for the dice)."""
        while True:
            self.message("The opening throw")
            if self.settings.set_dice:
                typed = yield from menus.ask_dice(self.basic, "the opening",
                                                  prompt=self.opening_prompt(), allow_quit=True)
                if typed == "quit":
                    return "quit"
                top, bottom = typed
            else:
                yield from self.tumble()
                top, bottom = self.dice.die(), self.dice.die()
            self.draw_dice(top, bottom, True, False)
            self.log.append(f"opening {top} {bottom}")
            if top != bottom:
                break
            if not any(self.typed.values()):         # the demo throws again by itself
                self.message("Tie: throwing again")
                self.heard((yield from self.basic.pause(OPENING_READ_FRAMES)), self.top)
                continue
            self.message("Tie: press ENTER to throw again")
            yield from self.basic.wait_enter()
        top_starts = top > bottom
        if self.two_players or not self.typed[self.bottom]:
            starter = self.top if top_starts else self.bottom
            self.message(f"{starter.capitalize()} starts with {max(top, bottom)} and "
                         f"{min(top, bottom)}")
        elif top_starts:
            self.message(f"I start with {top} and {bottom}")
        else:
            self.message(f"You start with {bottom} and {top}")
        yield from self.basic.pause(OPENING_READ_FRAMES)
        return top_starts, top, bottom

    def opening_prompt(self) -> str:
        """Set dice at the opening throw: whose die is typed first (the top die's)."""
        if self.top == COMPUTER:
            return "Opening: my die, yours?"
        return f"Opening: {self.top.capitalize()}'s, {self.bottom.capitalize()}'s?"

    def first_turn(self):
        """Who moves first and with which dice (None: that side rolls its own); ('quit',
        None) when QUIT was typed for the opening dice."""
        who = self.settings.who_starts
        if who == "roll":
            opened = yield from self.opening()
            if opened == "quit":
                return "quit", None
            top_starts, top, bottom = opened
            return (self.top, (top, bottom)) if top_starts else (self.bottom, (bottom, top))
        side = self.bottom if who == "human" else self.top
        throw = opening_throw(side, self.match.sides, self.dice.die)
        return throw.first, None

    # ---------- the cube ----------
    def may_double(self, side: str) -> bool:
        """Could `side` double at the start of its next turn (before its throw)?"""
        m = self.match
        was = (m.on_roll, m.rolled)
        m.on_roll, m.rolled = side, False
        try:
            return bool(m.can_double(side))
        finally:
            m.on_roll, m.rolled = was

    def refuse(self, why: str):
        """A reason too long for the message line, then the board back."""
        yield from menus.tell(self.basic, why, redraw=self.redraw)

    def before_roll(self, side: str):
        """The cube before `side` rolls: the computer's own double, or the double a person
        asked for (D while the last play was shown, or at the two-player prompt). Returns
        a GameResult when a double was dropped, else None."""
        m = self.match
        if not self.typed[side]:
            if not (self.cube_policy and m.can_double(side)):
                return None
            decision = self.cube_policy(self.held_for(side), m, side)
            if not decision.double or decision.too_good:
                return None
            return (yield from self.offer_double(side))
        ask = self.two_players or not self.heard_from_last_play
        if self.cube_advice_wanted:
            self.cube_advice_wanted = False
            ok, why = m.can_double(side)
            if not ok:
                yield from self.refuse(f"No cube advice: {why[:1].lower()}{why[1:]}.")
            elif not self.double_wanted:
                yield from self.cube_advice(side, offered=False)
                ask = True
        if ask and m.can_double(side) and not self.double_wanted:
            who = "You" if side == HUMAN else side.capitalize()
            self.message(f"{who}: ENTER rolls, D doubles")
            while True:
                key = yield from self.basic.inkey()
                if key in DOUBLE_KEYS:
                    self.double_wanted = True
                    break
                if key == CODE_ENTER:
                    break
                if key in ADVICE_KEYS:
                    yield from self.cube_advice(side, offered=False)
                    self.message(f"{who}: ENTER rolls, D doubles")
        if not self.double_wanted:
            return None
        self.double_wanted = False
        ok, why = m.can_double(side)
        if not ok:
            yield from self.refuse(why)
            return None
        return (yield from self.offer_double(side))

    def cube_advice(self, doubler: str, offered: bool):
        """A at a cube question: the evaluator's view of the cube for `doubler` at the
        strongest level (the match score through its table) on a page, then the board."""
        from game import evaluator
        self.message("Thinking...")
        yield
        m = self.match
        who = "I" if doubler == COMPUTER else ("You" if doubler == HUMAN else doubler.capitalize())
        try:
            decision = evaluator.cube_decision(self.held_for(doubler), commands.ADVICE_LEVEL,
                                               **cube_terms(m, doubler))
            lines = commands.cube_advice_lines(decision, who, offered, bool(m.length))
        except (BackgammonError, ValueError) as exc:
            lines = ["No advice this time:"] + instructions.wrap(str(exc))
        yield from menus.cube_advice_screen(self.basic, lines)
        self.redraw()

    def offer_double(self, doubler: str):
        m = self.match
        value = m.double(doubler)
        receiver = m.other(doubler)
        self.log.append(f"{doubler} doubles to {value}")
        if self.typed[receiver]:
            if doubler == COMPUTER:
                question = f"I double to {value}. Take?"
            else:
                question = f"{doubler.capitalize()} doubles to {value}. Take?"
            self.basic.beep(*COMPUTER_BEEP)
            while True:
                take = yield from menus.ask_yes_no(self.basic, question, other_keys="A")
                if take != "A":
                    break
                yield from self.cube_advice(doubler, offered=True)
        else:
            said = ("You double" if doubler == HUMAN else f"{doubler.capitalize()} doubles") \
                + f" to {value}"
            self.message(said + ". Thinking...")
            yield
            decision = self.cube_policy(self.held_for(doubler), m, doubler) \
                if self.cube_policy else None
            take = True if decision is None else decision.take
            words = ("I take" if take else "I drop") if receiver == COMPUTER else \
                f"{receiver.capitalize()} {'takes' if take else 'drops'}"
            self.message(f"{said}: {words}")
        if take:
            m.take()
            self.log.append(f"{receiver} takes {value}")
            self.draw_cube()
            result = None
        else:
            self.log.append(f"{receiver} drops")
            result = m.drop()
        if not self.typed[receiver]:
            yield from self.basic.pause(OPENING_READ_FRAMES)
        return result

    # ---------- the human's turn ----------
    def human_turn(self, dice, side: str = HUMAN):
        """A turn typed at the keyboard (the human, or either side with two players).
        Returns 'quit' if QUIT was typed, else the steps made (in the mover's numbers)."""
        bottom = side == self.bottom
        turn = rules.Turn(self.held_for(side), dice, mover_is_human=bottom)
        self.turn = turn                               # tests read the turn in progress
        tag = "human" if side == HUMAN else side
        if turn.complete:                              # no legal step at all: forfeit
            name = "You" if side == HUMAN else side.capitalize()
            if turn.start.board[BAR]:
                self.message(f"{name} can't enter" + PRESS_ENTER)
            else:
                self.message(f"{name} cannot move" + PRESS_ENTER)
            self.log.append(f"{tag} {dice[0]}{dice[1]} forfeit")
            yield from self.basic.wait_enter()
            return ()
        prompt = "Your move?" if side == HUMAN else f"{side.capitalize()}'s move?"
        while True:
            while not turn.complete:
                ahead, self.typed_ahead = self.typed_ahead, ""
                text = yield from self.basic.input(prompt, text=ahead)
                word = text.strip().upper()
                if word in COMMANDS:
                    yield from self.command(COMMANDS[word], side, turn)
                    continue
                result = self.human_entry(turn, text)
                if result == "quit":
                    return "quit"
                if result is not None:                # a message: show it, wait for ENTER
                    self.message(result + PRESS_ENTER)
                    yield from self.basic.wait_enter()
            if self.settings.confirm_turn:
                ready = yield from menus.ask_yes_no(self.basic, "READY?", enter_means=True)
                if not ready:
                    self.undo_all(turn)
                    continue
            break
        self.log.append(f"{tag} {dice[0]}{dice[1]} {play_words_made(turn)}")
        return tuple(turn.steps)

    def undo_all(self, turn: rules.Turn) -> None:
        while turn.made:
            turn.undo()
        self.show_turn(turn)

    def show_turn(self, turn: rules.Turn) -> None:
        position = turn.position
        self.show(position if turn.mover_is_human else position.swapped())
        self.mark_dice(turn)

    def human_entry(self, turn: rules.Turn, text: str):
        """Act on one typed line: None after a legal step (shown at once), 'quit', or the
        few words saying why nothing was moved. Never raises for any text."""
        if text.strip().upper() == "QUIT":
            return "quit"
        try:
            letter, die = parse_entry(text)
        except EntryError:
            return entry_words(text)
        from_index = Position.index_of_letter(letter, turn.mover_is_human)
        try:
            after = turn.step(from_index, die)
        except IllegalMoveError as why:
            higher = same_man_off_with_higher(turn, from_index, die, str(why))
            if higher is None:
                return step_words(str(why), from_index, die)
            after = turn.step(from_index, higher)
        except BackgammonError as exc:               # pragma: no cover - engine disagreement
            return str(exc)[:19]
        self.show(after if turn.mover_is_human else after.swapped())
        self.mark_dice(turn)
        self.basic.beep(*STEP_BEEP)
        return None

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
        black = not turn.mover_is_human
        self.draw_dice(top, bottom, black)

    # ---------- commands at "Your move?" ----------
    def command(self, what: str, side: str, turn: rules.Turn):
        basic, m = self.basic, self.match
        if what == "help":
            yield from menus.help_screens(basic)
            self.redraw()
        elif what == "options":
            out = yield from menus.options_menu(basic, self.settings)
            self.apply_style()
            if "cube" in out.changed and not m.results and m.cube_value == 1 \
                    and m.cube_owner is None:
                m.cube_enabled = self.settings.cube      # nothing turned on it yet
            self.redraw()
        elif what == "score":
            yield from menus.score_screen(basic, m)
            self.redraw()
        elif what == "pips":
            names = ("you", "me") if side == HUMAN else (side.capitalize(),
                                                          m.other(side).capitalize())
            self.message(commands.pip_count_text(turn.position, names))
            yield from self.info_pause()
        elif what == "ids":
            self.message(commands.position_id_text(turn.start, m, turn.dice))
            yield from self.info_pause()
        elif what == "advice":
            yield from menus.advice_screen(basic, turn.start, turn.dice,
                                           mover_is_human=turn.mover_is_human,
                                           match=play_match(m, side))
            self.redraw()
            self.mark_dice(turn)
        elif what == "takeback":
            if turn.made:
                turn.undo()
                self.show_turn(turn)
            else:
                self.message("No man moved yet" + PRESS_ENTER)
                yield from basic.wait_enter()
        elif what == "undo":
            self.undo_all(turn)
        elif what == "double":
            ok, why = m.can_double(side)
            yield from self.refuse(why or "You may only double before you roll")
            self.mark_dice(turn)
        elif what == "export":
            name = yield from self.export()
            self.message(name[:S.COLS])
            yield from self.info_pause()

    def info_pause(self):
        """A message-line answer stays a while; a key ends it, and a letter or digit typed
        then starts the next entry (the player typing the move at once loses nothing)."""
        key = yield from self.basic.pause(INFO_FRAMES)
        if key is not None and 33 <= key < 128:
            self.typed_ahead = chr(key)

    def export(self):
        """X: the finished games of this match as a .mat file; returns the words to show."""
        from game import matfile
        finished = [g.number for g in self.match.record.games if g.finished]
        if not finished:
            return "No finished game to export"
        if self.export_dir:
            directory = self.export_dir
        else:                                       # the console passes its working dir
            from game.settings import config_dir
            directory = str(config_dir())
            os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, time.strftime("match-%Y%m%d-%H%M%S.mat"))
        try:
            matfile.write_mat(self.match.record, path, games=finished)
        except OSError as exc:
            return f"Not saved: {exc.strerror or exc}"
        yield
        return f"Saved {os.path.basename(path)}"

    # ---------- the computer's turn ----------
    def computer_turn(self, dice, side: str = COMPUTER):
        """Returns the steps played (in the mover's numbers)."""
        bottom = side == self.bottom
        mover = self.held_for(side)                     # the computer on roll
        if getattr(self.choose, "takes_match", False):   # the evaluator: the match score too
            play = self.choose(mover, dice, match=play_match(self.match, side))
        else:
            play = self.choose(mover, dice)
        legal = rules.legal_plays(mover, dice)
        if play.after not in {other.after for other in legal}:
            play = legal[0]                             # never show a play the rules refuse
        speed = self.settings.speed
        me = "I" if side == COMPUTER else side.capitalize()
        tag = "computer" if side == COMPUTER else side
        if not play.steps:
            self.message(f"{me} cannot move")
            self.log.append(f"{tag} {dice[0]}{dice[1]} forfeit")
            yield from self.read_pause(SPEED_READ[speed], side)
            return ()
        words = play_words(play.steps, mover_is_human=bottom)
        self.message(f"I play {words}" if side == COMPUTER else f"{me} plays {words}")
        turn = rules.Turn(mover, dice, mover_is_human=bottom)
        for step in play.steps if speed != "instant" else ():
            yield from self.watch(SPEED_PAUSE[speed], side)
            try:
                after = turn.step(step.from_index, step.die)
            except BackgammonError:                     # steps in an order Turn refuses
                break
            self.show_for(side, after)
            self.basic.beep(*COMPUTER_BEEP)
        self.show_for(side, play.after)
        self.log.append(f"{tag} {dice[0]}{dice[1]} {words}")
        yield from self.read_pause(SPEED_READ[speed], side)
        return tuple(play.steps)

    def watch(self, frames: int, side: str):
        """Wait while the men move; a D meanwhile asks for a double before the next throw,
        an A for the cube advice then, and in the demo any key stops it. Other keys are
        dropped."""
        for _ in range(frames):
            yield
            self.heard(self.basic.take_key(), side)

    def heard(self, key, side: str) -> None:
        if key is None:
            return
        nxt = self.match.other(side)
        if not self.typed[self.bottom]:
            self.stopped = True
        elif key in DOUBLE_KEYS and self.typed[nxt]:
            self.double_wanted = True
        elif key in ADVICE_KEYS and self.typed[nxt]:
            self.cube_advice_wanted = True

    def read_pause(self, frames: int, side: str):
        """Time to read the play; a key cuts it short. D (the next mover may double) asks
        for a double before that side's throw, A for the cube advice then; in the demo any
        key stops it."""
        nxt = self.match.other(side)
        if self.typed[nxt] and not self.two_players and self.may_double(nxt):
            self.screen.text(S.MESSAGE_ROW, S.COLS - 9, "D doubles", S.MESSAGE)
        if self.double_wanted or self.cube_advice_wanted or self.stopped:
            frames = 0                                  # already answered while moving
        key = yield from self.basic.pause(frames)
        self.heard(key, side)

    # ---------- a whole game ----------
    def play(self):
        """Play one game; returns the match's GameResult, or 'quit' when QUIT was typed
        (or 'stop' when a key stopped the demo)."""
        m = self.match
        if not m.in_game:
            m.start_game()
        self.apply_style()
        self.screen.draw_board(view_of(self.position))
        self.draw_cube()
        self.heard_from_last_play = False     # no play shown yet to press D during
        self.cube_advice_wanted = False
        if self.resume:
            side, dice = self.resume
            self.resume = None
            if dice:
                self.draw_dice(dice[0], dice[1], side == self.top)
        else:
            side, dice = yield from self.first_turn()
            if side == "quit":
                return "quit"
        while True:
            m.start_turn(side)
            self.at = (self.position, side, dice)
            if dice is None:
                result = yield from self.before_roll(side)
                if result is not None:
                    return result
                dice = yield from self.roll(side)
                if dice == "quit":
                    return "quit"
                self.at = (self.position, side, dice)
            m.dice_rolled()
            if self.typed[side]:
                steps = yield from self.human_turn(dice, side)
                if steps == "quit":
                    return "quit"
            else:
                steps = yield from self.computer_turn(dice, side)
            m.record_move(side, dice, steps)
            kind = rules.game_result(self.position)
            if kind:
                winner = self.bottom if kind > 0 else self.top
                return m.end_game(winner, abs(kind))
            if self.stopped:
                return "stop"
            side, dice = m.other(side), None
            self.turn = None
            self.heard_from_last_play = True  # the next throw's D was asked for meanwhile


def play_words_made(turn: rules.Turn) -> str:
    return " ".join(f"{Position.letter_of_index(f, True)}{d}" for f, d in turn.made)


def first_legal_play(position: Position, dice) -> rules.Play:
    """The computer's choice until the evaluator answers: the engine's first legal play."""
    return rules.legal_plays(position, dice)[0]


def usr_chooser(basic: Basic, level, warm_up=None):
    """The machine-code call, as the 1983 program made it: POKE the position, dice and level
    into the request block at PARAMS, USR the stub at USR_ENTRY (the host's trap there calls
    the C evaluator on the machine's memory), read the play back from RAM; BC is the status.
    None when the machine code's symbols are not there. `warm_up` (a thread loading the
    weights) is waited for before the first call. `level` is a number or a function giving
    it at each call (the options menu can change it between two decisions)."""
    from game import evaluator
    try:
        entry, params = basic.addr("USR_ENTRY"), basic.addr("PARAMS")
    except KeyError:
        return None
    install_usr_trap(basic, entry, params)

    def choose(position: Position, dice, match=None) -> rules.Play:
        if warm_up is not None:
            warm_up.join()
        now = level() if callable(level) else level        # the options' level, each call
        request = evaluator.encode_request(evaluator.JOB_BEST, position, dice, now)
        for offset, value in enumerate(request):
            basic.poke(params + offset, value)
        # the match score, if any; a score the table cannot take is played as money
        context = evaluator.encode_play_match(evaluator.playable_match(match))
        for offset, value in enumerate(context):
            basic.poke(params + evaluator.PLAY_MATCH_AT + offset, value)
        status = basic.usr(entry)
        answer = evaluator.decode_answer(basic.memory, params)
        if status != 0 or answer.get("status") or "steps" not in answer:
            return first_legal_play(position, dice)     # the door refused: play on regardless
        return rules.Play(answer["after"], tuple(answer["steps"]))
    choose.takes_match = True       # Game.computer_turn passes match=play_match(...)
    return choose


def install_usr_trap(basic: Basic, entry: int, params: int) -> None:
    """The host's side of the door: a CPU trap at USR_ENTRY that runs bg_usr over the
    machine's memory and leaves the status in BC, before the stub's RET returns it."""
    from game import evaluator
    machine = basic.machine
    cpu = getattr(machine, "cpu", None)
    if cpu is None:                                     # the stand-in machine: no CPU
        machine.usr_traps = {entry: lambda: evaluator.usr_call(machine.memory, params)}
        return

    def on_usr(cpu):
        cpu.bc = evaluator.usr_call(machine.memory, params) & 0xFFFF

    cpu.traps[entry] = on_usr


class Session:
    """What the program is doing, for the console to save on closing the window: the
    options, the match and the game in progress."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.match: Match | None = None
        self.game: Game | None = None


def save_session(session: Session, path=None):
    """Save the match in progress (savegame.save_game) at the start of the turn being
    played; returns the path, or None when there is nothing to save."""
    from game import savegame
    game, match = session.game, session.match
    if game is None or match is None or not match.in_game:
        return None
    position, side, dice = game.at
    if side is None:
        return None
    saved = savegame.SavedGame(match, position.position_id, side, tuple(dice) if dice else None,
                               session.settings, extra={"held": "bottom"})
    return savegame.save_game(saved, path)


def offer_resume(basic: Basic, screen: S.Screen, session: Session, path=None):
    """At start-up: a saved match is offered (Y resumes it); a damaged save is set aside
    (kept) with a warning and a fresh start. Returns (match, position, side, dice) or None."""
    from game import savegame
    if not savegame.has_save(path):
        return None
    saved, warning = savegame.load_game(path, warn=None)
    if warning:                                 # set aside (kept), and a fresh start
        screen.message(short_warning(warning, "Saved game damaged: set aside"))
        yield from basic.pause(OPENING_READ_FRAMES * 2)
        return None
    if saved is None:
        return None
    m = saved.match
    score = f" {m.score[m.sides[0]]}-{m.score[m.sides[1]]}" if any(m.score.values()) else ""
    resume = yield from menus.ask_yes_no(basic, f"Resume saved game{score}?")
    savegame.discard_save(path)
    if not resume:
        return None
    m.offered_by, m.rolled = None, False
    position = Position.from_id(saved.position_id)
    return m, position, saved.turn, saved.dice


def short_warning(warning: str, words: str) -> str:
    """The message line's version of a long warning (the whole one goes to stderr)."""
    return warning if len(warning) <= S.COLS else words


def new_match(settings: Settings) -> Match:
    if settings.players != "human-computer":      # two players, or the demo
        return Match(settings.match_length, sides=(WHITE, BLACK), cube=settings.cube)
    return Match(settings.match_length, cube=settings.cube)


def program(basic: Basic, dice: Dice | None = None, level: int = DEFAULT_LEVEL,
            chooser=None, ask_instructions: bool = True, games: list | None = None,
            start: Position | None = None, settings: Settings | None = None,
            cube_policy=None, session: Session | None = None, warning: str | None = None,
            export_dir=None, resume: bool = False, match: Match | None = None):
    """The whole program after the tape has loaded; runs until the machine is switched off.
    `start`: the first game's position (human on roll), for tests; later games start
    from the usual position. `settings`: the options (game/settings.py; defaults if None),
    `warning` a line to show first (a damaged settings file). `cube_policy`: the computer's
    cube decisions (evaluator_cube(settings)); None: it never doubles and always takes.
    `session` is kept up to date for save_session; `resume`: offer a saved game first.
    For tests: `start` may be a list (the first games' positions, in order) and `match` the
    first match (a game already started in it keeps its cube)."""
    dice = dice or Dice()
    settings = settings or Settings()
    session = session or Session(settings)
    session.settings = settings
    basic.silent = basic.silent or not settings.sound
    screen = S.Screen(basic.memory, basic.print_at)
    chooser = chooser or first_legal_play
    if warning:                                 # a damaged settings file: the defaults
        screen.message(short_warning(warning, "Options file damaged: defaults"))
        yield from basic.pause(OPENING_READ_FRAMES * 2)
    carry_on = None
    if resume:
        carry_on = yield from offer_resume(basic, screen, session)
    if ask_instructions and carry_on is None:
        yield from instructions.offer(basic)
    starts = list(start) if isinstance(start, (list, tuple)) else [start]
    while True:
        start = starts.pop(0) if starts else None
        resume_turn = None
        if carry_on is not None:
            match, start, side, saved_dice = carry_on
            resume_turn = (side, saved_dice)
            carry_on = None
        elif match is None or not match.in_game and match.is_over:
            match = new_match(settings)
        session.match = match
        game = Game(basic, screen, dice, chooser, start, match=match, settings=settings,
                    cube_policy=cube_policy, resume=resume_turn, export_dir=export_dir)
        session.game = game
        if games is not None:
            games.append(game)                  # for tests and the console's --seed replay
        result = yield from game.play()
        if result in ("quit", "stop"):
            if match.in_game:                   # an abandoned game scores nothing
                match.in_game = False
                if match.crawford_game:         # and the Crawford game is still to come
                    match.crawford_game = match.crawford_done = False
                if match.record.games and not match.record.games[-1].finished:
                    match.record.games.pop()
                    match.game_number -= 1
            if result == "stop":
                yield from demo_over(basic, screen, settings)
                match = None
                starts[:0] = [(yield from between_games(basic, screen, settings))]
                continue
            screen.message("Game abandoned. A new game...")
            yield from basic.pause(OPENING_READ_FRAMES)
            if not fits(match, settings):
                match = None                    # options changed the match meanwhile
            continue
        key = yield from game_over(basic, screen, result, game)
        if key == "stop":                       # a key pressed after a demo game
            yield from demo_over(basic, screen, settings)
            match = None
            starts[:0] = [(yield from between_games(basic, screen, settings))]
            continue
        if match.is_over:
            yield from menus.match_over_screen(basic, match)
            if (yield from menus.ask_yes_no(basic, "Export the match (.mat)?")):
                words = yield from game.export()
                screen.message(words[:S.COLS])
                yield from basic.wait(OPENING_READ_FRAMES)
            match = None
            key = None
        if key in (ord("o"), ord("O")):
            starts[:0] = [(yield from between_games(basic, screen, settings))]
        if match is not None and not fits(match, settings):
            match = None                        # the options changed the match: a new one
        if match is None:
            match = new_match(settings)


def demo_over(basic: Basic, screen: S.Screen, settings: Settings):
    """A key stopped the computer-against-computer demo: back to human against computer."""
    screen.message("Demo over")
    settings.players = "human-computer"
    yield from basic.pause(OPENING_READ_FRAMES)


def fits(match: Match, settings: Settings) -> bool:
    """Does the match in progress still agree with the options (length, cube, players)?
    Changed in the middle of a match, they take effect from the next match."""
    two_sided = settings.players != "human-computer"
    return (match.length == settings.match_length and match.cube_enabled == settings.cube
            and (match.sides == (WHITE, BLACK)) == two_sided)


def between_games(basic: Basic, screen: S.Screen, settings: Settings):
    """The options before a game, with S for setting up a board; returns the set-up
    position (human on roll) or None."""
    from game import setup_board
    out = yield from menus.options_menu(basic, settings, offer_setup=True)
    if out.setup_board:
        position = yield from setup_board.setup_board(basic, screen)
        return position
    return None


def fit_banner(words: str) -> str:
    """The game-over words in one 32-column row: 'points' shortened to 'pts', then the
    article dropped, only when the whole does not fit ("WHITE WINS a single game ...")."""
    for short in (words, words.replace(" points)", " pts)").replace(" point)", " pt)")):
        if len(short) <= S.COLS:
            return short
    return short.replace(" a ", " ", 1)[:S.COLS]


def game_over(basic: Basic, screen: S.Screen, result, game: Game | None = None):
    """The winner and the kind of win on the board, a tune, then a new game on a key (O:
    the options first). `result`: a match.GameResult (or, as in 1983, +/-1..3 from the
    human's side). Returns the key pressed; after a demo game, None when the demo runs on
    or "stop" when a key stopped it."""
    if isinstance(result, int):
        winner_side = HUMAN if result > 0 else COMPUTER
        kind, points = abs(result), abs(result)
    else:
        winner_side, kind, points = result.winner, result.kind, result.points
    who = {HUMAN: "YOU WIN", COMPUTER: "I WIN"}.get(winner_side, f"{winner_side.upper()} WINS")
    if kind == "drop":
        loser = game.match.other(winner_side) if game else \
            (COMPUTER if winner_side == HUMAN else HUMAN)
        banner = f"{who}: {result_words(kind, points, loser)}"
    else:
        banner = f"{who} {result_words(kind, points)}"
    row = S.BOTTOM_FIRST_ROW - 1
    cube = getattr(screen, "cube", None)
    if cube and S.CUBE_ROW.get(S.cube_side(cube[1])) in (row, row - S.CUBE_ROWS + 1):
        screen.clear_cube()                     # the centred cube would be cut in half
    screen.text(row, 0, fit_banner(banner).center(S.COLS),
                S.attr(S.BLACK, S.YELLOW, bright=True))
    happy = winner_side != COMPUTER
    for ms, hz in (WIN_TUNE if happy else LOSE_TUNE):
        basic.beep(ms, hz)
    match = game.match if game else None
    if game is not None and not game.typed[game.bottom] and not (match and match.is_over):
        screen.message("Demo: any key stops it")   # the demo runs on by itself
        key = yield from basic.pause(DEMO_NEXT_GAME_FRAMES)
        return None if key is None else "stop"
    if match is not None and match.is_over:
        screen.message("Press any key")
    else:
        screen.message("Press any key for a new game")
    return (yield from basic.inkey())
