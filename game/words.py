"""Every word the program says about a player, in one table keyed by codes: who is who
(I/You, White/Black, the two sides a chances column names), the short messages of a turn, the
results of a game and the few words for each BG_STEP_* reason the C engine gives. Not screen
layout (game/board/screen.py)."""
from collections.abc import Iterable

from game.model.match import COMPUTER, DROP, HUMAN, KIND_NAMES, MAX_SCORE, RESIGN, Match
from game.model.position import BAR, Position
from game.model.rules import Step, StepCode

# code -> the human's words | the computer's | anyone else's; {Side} is the side's name
SAY = {
    "throw": "Your throw|My throw|{Side}'s throw",
    "starts": "You start with {a} and {b}|I start with {a} and {b}|"
              "{Side} starts with {a} and {b}",
    "move?": "Your move?|{Side}'s move?|{Side}'s move?",
    "cannot enter": "You can't enter|{Side} can't enter|{Side} can't enter",
    "cannot move": "You cannot move|{Side} cannot move|{Side} cannot move",
    "no move": "{Side} cannot move|I cannot move|{Side} cannot move",
    "plays": "{Side} plays {words}|I play {words}|{Side} plays {words}",
    "roll or double": "You: ENTER rolls, D doubles|{Side}: ENTER rolls, D doubles|"
                      "{Side}: ENTER rolls, D doubles",
    "doubles": "You double to {value}|{Side} doubles to {value}|{Side} doubles to {value}",
    "doubles, take?": "{Side} doubles to {value}. Take?|I double to {value}. Take?|"
                      "{Side} doubles to {value}. Take?",
    "takes": "{Side} takes|I take|{Side} takes",
    "drops": "{Side} drops|I drop|{Side} drops",
    "who": "You|I|{Side}",
    "wins": "YOU WIN|I WIN|{SIDE} WINS",
    "drop result": "you drop|I drop|{Side} drops",
    "resign result": "you resign|I resign|{Side} resigns",
    "resigns, accept?": "You resign {points}. Accept?|I resign {points}. Accept?|"
                        "{Side} resigns {points}. OK?",
    "accepts": "You accept|I accept|{Side} accepts",
    "plays on": "You play on|I play on|{Side} plays on",
}
# the computer speaks for itself: how the score pages name a side against it, as the
# subject of a line ("You"), after "owned by" ("you") and with "ahead" ("You are")
SCREEN_NAMES = {"human": ("You", "you", "You are"), "computer": ("Me", "me", "I am")}
SIDE_NAMES = {side: forms[0] for side, forms in SCREEN_NAMES.items()}   # a line's subject
SIDE_WORDS = {side: forms[1] for side, forms in SCREEN_NAMES.items()}   # after another word
# the two sides against the computer where a page names them both (the chances columns, the
# advice's), the human first
DEFAULT_NAMES = (SIDE_NAMES["human"], SIDE_NAMES["computer"])
DEFAULT_WORDS = (SIDE_WORDS["human"], SIDE_WORDS["computer"])   # the same inside a line
# a side in "Dice for {who}?", the typed dice's prompt
WHO_WORDS = {**SIDE_WORDS, "white": "White", "black": "Black"}
PRESS_ENTER = ". Press ENTER"
# under the banner when a money score reached match.MAX_SCORE (what a gnubg match ID holds)
SCORE_CAPPED = f"Scores stop at {MAX_SCORE}"         # a row over the board: 28 columns
# under the banner when a money series holds the most a save can (match.series_full)
SERIES_FULL = "Series over: a save is full"

# How a game ended (a match.ENDINGS kind): in a sentence ("a gammon (2 points)"; a drop is
# said by who dropped) and in the score page's column
KIND_WORDS = {"single": ("a single game", "single"), "gammon": ("a gammon", "gammon"),
              "backgammon": ("a backgammon", "backgammon"), DROP: (None, "dropped"),
              RESIGN: (None, "resigned")}

# A few words (at most 19 columns, + PRESS_ENTER) for each reason the engine refuses a step
STEP_WORDS: dict[int, str] = {
    StepCode.NO_SUCH_DIE: "No {die} to play",
    StepCode.BAR_FIRST: "Bar man goes first",
    StepCode.NO_MAN: "No man on {point}",
    StepCode.BLOCKED: "Point {to} is blocked",
    StepCode.NOT_ALL_HOME: "Not all men home",
    StepCode.MAN_HIGHER: "A man stands higher",
    StepCode.WASTES_DICE: "Must use both dice",
    StepCode.HIGHER_DIE: "Play the higher die",
    StepCode.TURN_OVER: "Move complete",
}


def say(code: str, side: str, **values: object) -> str:
    """SAY[code] for `side`: the human's form, the computer's, or another side's by name."""
    human, computer, other = SAY[code].split("|")
    form = human if side == HUMAN else computer if side == COMPUTER else other
    return form.format(Side=side.capitalize(), SIDE=side.upper(), **values)


def chance_names(match: Match, side: str) -> tuple[str, str]:
    """The two sides as the chances columns name them, `side` (the mover) first: DEFAULT_NAMES
    for the human, else the names the match record holds."""
    if side == HUMAN:
        return DEFAULT_NAMES
    names = match.record.names
    return (names.get(side, side.capitalize()), names.get(match.other(side), ""))


def step_words(code: int | None, from_index: int, die: int) -> str:
    """The engine's BG_STEP_* reason for refusing a step, in a few words."""
    point = Position.letter_of_index(from_index)
    to = Position.letter_of_index(from_index - die) if 0 <= from_index - die < BAR else "?"
    said = STEP_WORDS.get(code, "Not allowed") if code is not None else "Not allowed"
    return said.format(die=die, point=point, to=to)


def play_words(steps: Iterable[Step], mover_is_human: bool = True) -> str:
    """A play in the letter notation, as the message line and the log show it: 'x6 s4'."""
    return " ".join(step.notation(mover_is_human).lower() for step in steps)


def points_words(points: int) -> str:
    return f"({points} point{'s' * (points != 1)})"


def result_words(kind: int | str, points: int, loser: str = COMPUTER) -> str:
    """'a gammon (4 points)' for a game played out (its kind by name or multiple); a drop
    reads 'I drop (1 point)', a resignation 'you resign (4 points)'."""
    if kind in (DROP, RESIGN):
        return f"{say(kind + ' result', loser)} {points_words(points)}"
    sentence, _column = KIND_WORDS[KIND_NAMES.get(kind, "") if isinstance(kind, int) else kind]
    return f"{sentence} {points_words(points)}"


def kind_column(kind: str) -> str:
    """A game's ending as the score page's column has it ('gammon', 'dropped')."""
    return KIND_WORDS[kind][1] if kind in KIND_WORDS else kind
