"""The options menu's settings, the board styles as colour data, and their small JSON file
in the user's config directory. Not the menu itself (game/pages/menus.py) and not the drawing
(game/board/palette.py reads a style's colours from here)."""
from __future__ import annotations

import json
import pathlib
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields

from game.errors import BackgammonError
from game.files.folders import CONFIG_ENV as CONFIG_ENV  # (re-exported: the tests set it)
from game.files.folders import config_dir
from game.files.validate import (
    MAX_INT_DIGITS,
    Invalid,
    Json,
    checked,
    flag,
    maybe,
    one_of,
    read_json_file,
    show,
    table,
    whole,
)
from game.model.match import MAX_LENGTH, BadMatchLength, parse_match_length
from spectrum import safe_write
from spectrum.hw import BLACK, BLUE, CYAN, GREEN, MAGENTA, RED, WHITE, YELLOW
from spectrum.quoting import quoted, say, short_path
from spectrum.safe_write import PathLike

SETTINGS_FILE = "settings.json"


@dataclass(frozen=True)
class BoardStyle:
    """One colour scheme: Spectrum colour numbers 0..7 for each part of the board."""
    name: str
    frame: int            # paper of the wooden sides and the panel
    board: int            # paper of the playing area
    points: tuple         # inks of alternate triangles
    bar: int              # paper of the bar
    white_men: int        # ink of the white (human's) men
    black_men: int        # ink of the black (computer's) men
    bright: bool = False


BOARD_STYLES = {
    # the 1983 look: yellow wood, blue cloth, red and cyan points, the green bar
    "classic": BoardStyle("classic", YELLOW, BLUE, (RED, CYAN), GREEN, WHITE, BLACK),
    "tournament": BoardStyle("tournament", RED, GREEN, (WHITE, BLACK), YELLOW, WHITE, BLACK),
    "midnight": BoardStyle("midnight", BLUE, BLACK, (MAGENTA, CYAN), RED, WHITE, YELLOW,
                           bright=True),
    "parchment": BoardStyle("parchment", BLACK, WHITE, (RED, BLUE), GREEN, YELLOW, BLACK),
    "mono": BoardStyle("mono", BLACK, WHITE, (BLACK, BLACK), BLACK, WHITE, BLACK),
}
STYLE_ORDER = tuple(BOARD_STYLES)

SPEEDS = ("steps", "quick", "instant")          # show each step / no blink / lightning
WHO_STARTS = ("roll", "human", "computer")
PLAYERS = ("human-computer", "human-human", "computer-computer")
LEVELS = range(1, 6)
TUTOR = ("off", "?", "??")      # warn of no error / errors marked ? or worse / ?? only
RULES = ("full", "1983")        # today's game / the 1983 inlay card's (game/files/rules1983.py)
CUBE_STOPS = ("always", "close")  # stop before every live cube's throw / only when close
REVIEWS = ("checked", "quick")  # each charged error judged again at 3 plies / charged at once


# The options menu, in order: (field, label, choices to cycle through; None = typed).
OPTIONS = (
    ("level", "Level", tuple(LEVELS)),
    ("cube", "Cube", (True, False)),
    ("sound", "Sound", (True, False)),
    ("speed", "Speed", SPEEDS),
    ("match_length", "Match length", None),
    ("who_starts", "Who starts", WHO_STARTS),
    ("confirm_turn", "Ask READY?", (True, False)),
    ("board_style", "Board style", STYLE_ORDER),
    ("switch_directions", "Directions", (False, True)),   # ON = switched
    ("switch_tokens", "Tokens", (False, True)),           # ON = swapped
    ("set_dice", "Set dice", (False, True)),               # ON = asked each roll
    ("players", "Players", PLAYERS),
    ("tutor", "Tutor", TUTOR),                            # game/scenes/tutor.py
    ("rules", "Rules", RULES),                            # 1983: the card's game only
    ("score_pips", "Score & pips", (True, False)),        # game/board/numbers.py
    ("cube_stop", "Cube stop", CUBE_STOPS),               # game/scenes/cube.py stop_wanted
    ("review", "Review", REVIEWS),                        # game/analysis/checking.py
)
MENU_KEYS = "123456789ABCDEFGH"
_WORDS = {True: "ON", False: "OFF", None: "UNLIMITED", "steps": "EACH STEP",
          "quick": "QUICK", "instant": "INSTANT", "roll": "ROLL", "human": "HUMAN",
          "computer": "COMPUTER", "human-computer": "HUMAN V COMPUTER",
          "human-human": "HUMAN V HUMAN", "computer-computer": "DEMO", "off": "OFF",
          "?": "WARNS AT ?", "??": "WARNS AT ??", "always": "ALWAYS", "close": "WHEN CLOSE",
          "checked": "CHECKED"}


class SettingsError(BackgammonError, ValueError):
    """A setting outside what the options menu offers; the message (one line) names the
    option and the value and says what is allowed."""


class SettingsUnreadable(SettingsError):
    """The settings file is there but cannot be read (a folder that cannot be read, an I/O
    error): not damaged, so nothing is kept aside."""


UNREADABLE = "cannot be read"
UNKNOWN_RULES = "is not a rules value of this version"


def short_words(warning: str) -> str:
    """The message line's few words for load_settings' warning."""
    if UNKNOWN_RULES in warning:
        return "Unknown rules: FULL rules"
    return ("Options unreadable: defaults" if UNREADABLE in warning
            else "Options file damaged: defaults")


def known_rules(data: Json, path: pathlib.Path) -> tuple[object, str | None]:
    """A settings table whose rules value is none of RULES (a newer version's, a slip of the
    pen) is not damaged: (the table without it, so the default rules and every other option
    as written, a warning naming the value); anything else comes back as it is, with None."""
    if type(data) is not dict or "rules" not in data or type(data["rules"]) is str \
            and data["rules"] in RULES:
        return data, None
    rest = {key: value for key, value in data.items() if key != "rules"}
    return rest, (f"Settings file {short_path(path)}: rules {show(data['rules'])} "
                  f"{UNKNOWN_RULES} ({', '.join(RULES)}); the {Settings.rules.upper()} rules "
                  f"are used.")


# Each option's exact type and range (game/files/validate.py): a level is an int, not 3.0 or true.
CHECKS = {
    "level": whole(LEVELS.start, LEVELS.stop - 1), "cube": flag, "sound": flag,
    "speed": one_of(*SPEEDS), "match_length": maybe(whole(1, MAX_LENGTH)),
    "who_starts": one_of(*WHO_STARTS), "confirm_turn": flag,
    "board_style": one_of(*STYLE_ORDER), "switch_directions": flag, "switch_tokens": flag,
    "set_dice": flag, "players": one_of(*PLAYERS), "tutor": one_of(*TUTOR),
    "rules": one_of(*RULES),
    "score_pips": flag,
    "cube_stop": one_of(*CUBE_STOPS),
    "review": one_of(*REVIEWS),
}


def parse_option(name: str, text: str) -> object:
    """An option's value typed as text (the command line's `--level 3`, `--rules 1983`), held
    to the option's own check (CHECKS): the value, or SettingsError, one line quoting the
    text short and saying what is allowed ("'9' is not a whole number from 1 to 5")."""
    value: object = text
    digits = text.strip().lstrip("+-")
    if digits.isascii() and digits.isdigit() and len(digits) <= MAX_INT_DIGITS:
        value = int(text)                     # a number, for the options that are numbers
    try:
        return CHECKS[name](value, name)
    except Invalid as exc:
        raise SettingsError(f"{quoted(text)} {exc.why}") from None


@dataclass
class Settings:
    """Every option, with the defaults a new player gets. match_length None = unlimited."""
    level: int = 5
    cube: bool = True
    sound: bool = True
    speed: str = "steps"
    match_length: int | None = None
    who_starts: str = "roll"
    confirm_turn: bool = False         # "READY?" at the end of the human's turn (1983: none)
    board_style: str = "classic"
    switch_directions: bool = False
    switch_tokens: bool = False
    set_dice: bool = False
    players: str = "human-computer"
    tutor: str = "off"                 # warn of a play marked ? or ?? at once (1983: none)
    rules: str = "full"                # "1983": the inlay card's game, nothing more
    score_pips: bool = True            # on the board (1983: neither; OFF for that look)
    cube_stop: str = "always"          # "ENTER rolls, D doubles" before each live cube's throw
    review: str = "checked"            # "quick": errors charged without the 3-ply check

    @property
    def checked_review(self) -> bool:
        """The review judges each charged error again at 3 plies (game/analysis/checking.py)."""
        return self.review == "checked"

    @property
    def rules_1983(self) -> bool:
        """The one switch of the 1983 mode: every part of the game that the inlay card does
        not describe (a cube, a score, a panel, a command) asks this and stays away."""
        return self.rules == "1983"

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Raise SettingsError (naming the option and the value) if any field is outside
        its allowed values; a match length typed as text ("7", "U") becomes its number."""
        if isinstance(self.match_length, str):
            text = self.match_length
            try:
                if len(text) > 12:
                    raise BadMatchLength("is too long to be a match length")
                self.match_length = parse_match_length(text)
            except BadMatchLength as exc:
                raise SettingsError(f"match_length: {show(text)}: {exc}") from None
        for name, check in CHECKS.items():
            checked(check, getattr(self, name), name, SettingsError)  # option by name

    def set(self, name: str, value: object) -> None:
        """Change one option, refusing (SettingsError, nothing changed) a bad value."""
        if name not in {f.name for f in fields(self)}:
            raise SettingsError(f"No such option: {name}")
        old = getattr(self, name)           # an option by its name (menus, files)
        setattr(self, name, value)
        try:
            self.validate()
        except SettingsError:
            setattr(self, name, old)
            raise

    def cycle(self, name: str) -> object:
        """Step an option to its next choice (the menu's key press); returns the new value.
        The match length is typed instead: use set("match_length", text)."""
        table = {n: choices for n, _, choices in OPTIONS}
        choices = table.get(name)
        if choices is None:
            raise SettingsError(f"{name} is typed, not stepped")
        current = getattr(self, name)       # the option named by the menu's table
        i = choices.index(current) if current in choices else -1
        self.set(name, choices[(i + 1) % len(choices)])
        return getattr(self, name)          # the option by name, as stepped

    def value_text(self, name: str) -> str:
        """An option's value as the menu shows it: "ON", "QUICK", "7", "UNLIMITED"."""
        value = getattr(self, name)         # the option by name, as the menu shows it
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        return _WORDS.get(value, str(value).upper())

    def menu_lines(self) -> list[tuple[str, str, str]]:
        """(key, option, line) for each option: the key that selects it (1..9, A..E) and a
        line of at most 32 characters, e.g. ("1", "level", "1 Level        5")."""
        return [(key, name, f"{key} {label:<13}{self.value_text(name)}"[:32])
                for key, (name, label, _) in zip(MENU_KEYS, OPTIONS, strict=True)]

    @property
    def style(self) -> BoardStyle:
        return BOARD_STYLES[self.board_style]

    def next_style(self) -> str:
        """Step to the next board style (the menu's cycling key); returns its name."""
        i = STYLE_ORDER.index(self.board_style)
        self.board_style = STYLE_ORDER[(i + 1) % len(STYLE_ORDER)]
        return self.board_style

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Json, field: str = "") -> Settings:
        """Settings from their JSON table, every known option checked for its exact type
        and range (SettingsError naming `field`.option and the value); unknown keys (from
        a newer version) are ignored."""
        checked(table(CHECKS, optional=tuple(CHECKS)), data, field, SettingsError)
        return cls(**{k: v for k, v in data.items() if k in CHECKS})

    # ---- the file ----------------------------------------------------------------
    def save(self, path: PathLike | None = None) -> pathlib.Path:
        """Write the settings file (a temporary file, fsynced, renamed over the old one)."""
        path = pathlib.Path(path) if path else settings_path()
        text = json.dumps(self.to_dict(), indent=1, sort_keys=True) + "\n"
        return safe_write.write_atomic(path, text.encode("utf-8"))


def export_folder(export_dir: PathLike | None = None) -> str:
    """Where the exports go (the .mat export, the review's .sgf): `export_dir` (the console passes
    its working directory), else the config directory, made if need be (OSError if not)."""
    if export_dir:
        return str(export_dir)
    return str(safe_write.make_folder(config_dir()))


def settings_path() -> pathlib.Path:
    return config_dir() / SETTINGS_FILE


def _stderr(message: str) -> None:
    say(message)


def load_settings(path: PathLike | None = None,
                  warn: Callable[[str], None] | None = _stderr) -> tuple[Settings, str | None]:
    """Read the settings file: (settings, None) when fine or absent (defaults), or
    (defaults, warning) when it is damaged, unreadable or not a regular file. The damaged
    file is kept aside as NAME.damaged-YYYYmmdd-HHMMSS: a copy (once per content) while
    the file itself stays until the options are next saved over it; anything that is not a
    regular file of at most 1 MiB is renamed. The one-line warning names the option and the
    value, and also goes to `warn` (stderr by default; None for silence). No other
    exception comes out."""
    path = pathlib.Path(path) if path else settings_path()
    try:
        data, note = known_rules(read_json_file(path, SettingsError,
                                                unreadable=SettingsUnreadable), path)
        settings = Settings() if data is None else Settings.from_dict(data)
        if note and warn:
            warn(note)
        return settings, note
    except SettingsUnreadable as exc:     # the folder or file cannot be read: nothing to keep
        warning = (f"Settings file {short_path(path)} {UNREADABLE} ({exc}); using the default "
                   f"options.")
        if warn:
            warn(warning)
        return Settings(), warning
    except SettingsError as exc:
        problem = str(exc)
    try:
        where = f"kept as {safe_write.keep_aside(path, copy=True).name}"
    except OSError as exc:
        where = f"could not be renamed ({exc.__class__.__name__})"
    warning = (f"Settings file {short_path(path)} is damaged ({problem}); {where}; using the "
               f"default options.")
    if warn:
        warn(warning)
    return Settings(), warning
