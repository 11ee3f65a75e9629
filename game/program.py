"""The program that runs on the 48K, as the 1983 BASIC listing did: instructions, the opening
throw, the human's and the computer's turns, the end of a game, QUIT. A generator: one
`yield` is one 50 Hz frame. Rules come from game/rules.py; drawing from game/screen.py."""
from game import instructions, rules
from game import screen as S
from game.basic import Basic
from game.dice import Dice
from game.errors import BackgammonError, EntryError, IllegalMoveError
from game.position import BAR, POINT_LETTERS, Position, parse_entry

# --- timings, in 50 Hz frames, and sounds (ms, Hz) ---
ROLL_FRAMES = 16                 # dice tumbling before they settle
ROLL_FLICKER_FRAMES = 2          # a new face every 2 frames
RATTLE = (4, 2200)               # one click of the dice rattle
STEP_PAUSE_FRAMES = 12           # between the computer's men
STEP_BEEP = (25, 880)            # a man put down
COMPUTER_BEEP = (35, 587)
READ_FRAMES = 100                # time to read the computer's play (a key cuts it short)
OPENING_READ_FRAMES = 75
WIN_TUNE = ((120, 523), (120, 659), (120, 784), (300, 1047))
LOSE_TUNE = ((200, 392), (200, 330), (400, 262))
DEFAULT_LEVEL = 5                # as game/settings.py: net 2-ply within a time budget
RESULT_WORDS = {1: "a single game (1 point)", 2: "a gammon (2 points)",
                3: "a backgammon (3 points)"}

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


def play_words(steps, mover_is_human: bool) -> str:
    """A play in the letter notation: each man's point and die, e.g. 'x6 s4'."""
    return " ".join(f"{Position.letter_of_index(s.from_index, mover_is_human)}{s.die}"
                    for s in steps)


class Game:
    """One game's state: the position (human on roll, row 0 = white), what is on screen."""

    def __init__(self, basic: Basic, screen: S.Screen, dice: Dice, chooser,
                 start: Position | None = None):
        self.basic = basic
        self.screen = screen
        self.dice = dice
        self.choose = chooser            # (position with computer on roll, dice) -> Play
        self.position = start or Position.start()
        self.log: list[str] = []         # what happened, for tests and replays
        self.turn: rules.Turn | None = None

    # ---------- showing ----------
    def show(self, position_human: Position) -> None:
        self.position = position_human
        self.screen.show(view_of(position_human))

    def message(self, words: str) -> None:
        self.screen.message(words)

    def roll(self, computer: bool):
        """Throw two dice for a turn, tumbling on screen with a rattle."""
        self.message("My throw" if computer else "Your throw")
        yield from self.tumble(both_black=computer)
        d1, d2 = self.dice.pair()
        self.screen.draw_dice(d1, d2, top_black=computer, bottom_black=computer)
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
        again after ENTER. Returns (computer_starts, top, bottom)."""
        while True:
            self.message("The opening throw")
            yield from self.tumble()
            top, bottom = self.dice.die(), self.dice.die()
            self.screen.draw_dice(top, bottom, True, False)
            self.log.append(f"opening {top} {bottom}")
            if top != bottom:
                break
            self.message("Tie: press ENTER to throw again")
            yield from self.basic.wait_enter()
        computer_starts = top > bottom
        if computer_starts:
            self.message(f"I start with {top} and {bottom}")
        else:
            self.message(f"You start with {bottom} and {top}")
        yield from self.basic.pause(OPENING_READ_FRAMES)
        return computer_starts, top, bottom

    # ---------- the human's turn ----------
    def human_turn(self, dice):
        """Returns 'quit' if QUIT was typed, else None when the turn is over."""
        turn = rules.Turn(self.position, dice, mover_is_human=True)
        self.turn = turn                               # tests read the turn in progress
        if turn.complete:                              # no legal step at all: forfeit
            if self.position.board[BAR]:
                self.message("You can't enter" + PRESS_ENTER)
            else:
                self.message("You cannot move" + PRESS_ENTER)
            self.log.append(f"human {dice[0]}{dice[1]} forfeit")
            yield from self.basic.wait_enter()
            return None
        while not turn.complete:
            text = yield from self.basic.input("Your move?")
            result = self.human_entry(turn, text)
            if result == "quit":
                return "quit"
            if result is not None:                    # a message: show it, wait for ENTER
                self.message(result + PRESS_ENTER)
                yield from self.basic.wait_enter()
        self.log.append(f"human {dice[0]}{dice[1]} {play_words_made(turn)}")
        return None

    def human_entry(self, turn: rules.Turn, text: str):
        """Act on one typed line: None after a legal step (shown at once), 'quit', or the
        few words saying why nothing was moved. Never raises for any text."""
        if text.strip().upper() == "QUIT":
            return "quit"
        try:
            letter, die = parse_entry(text)
        except EntryError:
            return entry_words(text)
        from_index = Position.index_of_letter(letter, True)
        try:
            after = turn.step(from_index, die)
        except IllegalMoveError as why:
            return step_words(str(why), from_index, die)
        except BackgammonError as exc:               # pragma: no cover - engine disagreement
            return str(exc)[:19]
        self.show(after)
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
        self.screen.draw_dice(top, bottom, False, False)

    # ---------- the computer's turn ----------
    def computer_turn(self, dice):
        mover = self.position.swapped()                 # the computer on roll
        play = self.choose(mover, dice)
        legal = rules.legal_plays(mover, dice)
        if play.after not in {other.after for other in legal}:
            play = legal[0]                             # never show a play the rules refuse
        if not play.steps:
            self.message("I cannot move")
            self.log.append(f"computer {dice[0]}{dice[1]} forfeit")
            yield from self.basic.pause(READ_FRAMES)
            return
        words = play_words(play.steps, mover_is_human=False)
        self.message(f"I play {words}")
        turn = rules.Turn(mover, dice, mover_is_human=False)
        for step in play.steps:
            yield from self.basic.wait(STEP_PAUSE_FRAMES)
            try:
                after = turn.step(step.from_index, step.die)
            except BackgammonError:                     # steps in an order Turn refuses
                self.show(play.after.swapped())
                break
            self.show(after.swapped())
            self.basic.beep(*COMPUTER_BEEP)
        self.log.append(f"computer {dice[0]}{dice[1]} {words}")
        yield from self.basic.pause(READ_FRAMES)

    # ---------- a whole game ----------
    def play(self):
        """Play one game; returns the result from the human's side (+ won, - lost; 1..3)
        or 0 when QUIT was typed."""
        self.screen.draw_board(view_of(self.position))
        computer_to_move, top, bottom = yield from self.opening()
        dice = (top, bottom) if computer_to_move else (bottom, top)
        first = True
        while True:
            if not first:
                dice = yield from self.roll(computer_to_move)
            first = False
            if computer_to_move:
                yield from self.computer_turn(dice)
            else:
                if (yield from self.human_turn(dice)) == "quit":
                    return 0
            result = rules.game_result(self.position)
            if result:
                return result
            computer_to_move = not computer_to_move


def play_words_made(turn: rules.Turn) -> str:
    return " ".join(f"{Position.letter_of_index(f, True)}{d}" for f, d in turn.made)


def first_legal_play(position: Position, dice) -> rules.Play:
    """The computer's choice until the evaluator answers: the engine's first legal play."""
    return rules.legal_plays(position, dice)[0]


def usr_chooser(basic: Basic, level: int, warm_up=None):
    """The machine-code call, as the 1983 program made it: POKE the position, dice and level
    into the request block at PARAMS, USR the stub at USR_ENTRY (the host's trap there calls
    the C evaluator on the machine's memory), read the play back from RAM; BC is the status.
    None when the machine code's symbols are not there. `warm_up` (a thread loading the
    weights) is waited for before the first call."""
    from game import evaluator
    try:
        entry, params = basic.addr("USR_ENTRY"), basic.addr("PARAMS")
    except KeyError:
        return None
    install_usr_trap(basic, entry, params)

    def choose(position: Position, dice) -> rules.Play:
        if warm_up is not None:
            warm_up.join()
        request = evaluator.encode_request(evaluator.JOB_BEST, position, dice, level)
        for offset, value in enumerate(request):
            basic.poke(params + offset, value)
        status = basic.usr(entry)
        answer = evaluator.decode_answer(basic.memory, params)
        if status != 0 or answer.get("status") or "steps" not in answer:
            return first_legal_play(position, dice)     # the door refused: play on regardless
        return rules.Play(answer["after"], tuple(answer["steps"]))
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


def program(basic: Basic, dice: Dice | None = None, level: int = DEFAULT_LEVEL,
            chooser=None, ask_instructions: bool = True, games: list | None = None,
            start: Position | None = None):
    """The whole program after the tape has loaded; runs until the machine is switched off.
    `start`: the first game's position (human on roll), for tests; later games start
    from the usual position."""
    dice = dice or Dice()
    screen = S.Screen(basic.memory, basic.print_at)
    chooser = chooser or first_legal_play
    if ask_instructions:
        yield from instructions.offer(basic)
    while True:
        game = Game(basic, screen, dice, chooser, start)
        start = None
        if games is not None:
            games.append(game)                  # for tests and the console's --seed replay
        result = yield from game.play()
        if result == 0:
            screen.message("Game abandoned. A new game...")
            yield from basic.pause(OPENING_READ_FRAMES)
            continue
        yield from game_over(basic, screen, result)


def game_over(basic: Basic, screen: S.Screen, result: int):
    """The winner and the kind of win on the board, a tune, then a new game on a key."""
    who = "YOU WIN" if result > 0 else "I WIN"
    banner = f"{who} {RESULT_WORDS[abs(result)]}".center(S.COLS)
    screen.text(S.BOTTOM_FIRST_ROW - 1, 0, banner, S.attr(S.BLACK, S.YELLOW, bright=True))
    for ms, hz in (WIN_TUNE if result > 0 else LOSE_TUNE):
        basic.beep(ms, hz)
    screen.message("Press any key for a new game")
    yield from basic.inkey()
