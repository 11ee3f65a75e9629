"""The options page: one row an option (game/files/settings.py's OPTIONS, a key 1-9/A-H
steps it), the match length typed, and between games the keys that leave it for the board
set-up, the review or the dice on trial. Not the settings themselves, nor their file."""
from __future__ import annotations

from dataclasses import dataclass

from game.board import screen as S
from game.files.settings import MENU_KEYS, OPTIONS, Settings, SettingsError
from game.interfaces import Frames
from game.model.match import Match, sides_for
from game.pages.menus import (
    BAD_KEY,
    CLICK,
    DONE_KEYS,
    FOOTER,
    KEY_CELL,
    PAGE,
    PROMPT_ROW,
    VALUE,
    ask_match_length,
    footer,
    key_char,
    show_reason,
    title_bar,
)
from game.zx.basic import Basic
from spectrum.safe_write import PathLike

OPTION_FIRST_ROW = 1                             # under the title, one row an option
VALUE_COL = 15                                   # settings.menu_lines(): key, label(13)
SWATCH_COL = 27                                  # board style colours beside its name
HINT_ROW = OPTION_FIRST_ROW + len(OPTIONS)       # two lines, then BETWEEN_GAMES_KEYS

# The keys that leave the options between games for something else, in the order shown
# under the options: (key, words). match_end.between_games acts on the one pressed.
BETWEEN_GAMES_KEYS = (
    ("S", "Set up your own board"),
    ("R", "Review a game of this match"),
    ("T", "The dice on trial"),
)


@dataclass(frozen=True)
class OptionsOutcome:
    """What the player did in the menu: the options changed (names of Settings fields, in
    the order first changed), whether the settings file was written, and the key of
    BETWEEN_GAMES_KEYS that left the menu ("" for ENTER)."""
    changed: tuple[str, ...] = ()
    saved: bool = True
    left_with: str = ""

    @property
    def setup_board(self) -> bool:
        return self.left_with == "S"

    @property
    def review(self) -> bool:
        return self.left_with == "R"

    @property
    def dice_trial(self) -> bool:
        return self.left_with == "T"


def _option_row(index: int) -> int:
    return OPTION_FIRST_ROW + index


def draw_option(basic: Basic, settings: Settings, index: int) -> None:
    key, name, line = settings.menu_lines()[index]
    row = _option_row(index)
    basic.print_at(row, 0, line.ljust(S.COLS), PAGE)
    basic.print_at(row, 0, key, KEY_CELL)
    basic.print_at(row, VALUE_COL, line[VALUE_COL:], VALUE)
    if name == "board_style":
        style = settings.style
        for i, paper in enumerate((style.frame, style.board, *style.points, style.bar)):
            basic.print_at(row, SWATCH_COL + i, " ",
                           S.attr(S.BLACK, paper, bright=style.bright))


def draw_options(basic: Basic, settings: Settings, offer_setup: bool) -> None:
    basic.cls(PAGE)
    title_bar(basic, "OPTIONS")
    for index in range(len(OPTIONS)):
        draw_option(basic, settings, index)
    draw_hints(basic, offer_setup)
    footer(basic, "ENTER to play on")


def length_note(settings: Settings, match: Match | None) -> str:
    """When the match length (or the players) set is not the match in progress's: from when
    it applies (the game in progress plays on as it began; the next game begins a new match,
    game/scenes/match_end.py fits). Else ""."""
    if match is None:
        return ""
    if settings.match_length != match.length:
        if settings.match_length is None:
            return "Money play from the next game"
        return f"A new match to {settings.match_length} from next game"
    if sides_for(settings.players) != match.sides:
        return "A new match from the next game"
    return ""


def draw_hints(basic: Basic, offer_setup: bool, note: str = "") -> None:
    """The lines under the options (and S, R, T between games; a refused length's red box
    lies over the last two of them, so they are drawn again once a length is taken); `note`
    (length_note) in place of the match length's hint."""
    basic.print_at(HINT_ROW, 0, f"Press 1-9 or A-{MENU_KEYS[-1]} to change one.", PAGE)
    basic.print_at(HINT_ROW + 1, 0, (note or "Match length (5) is typed.").ljust(S.COLS),
                   VALUE if note else PAGE)
    if offer_setup:
        for row, (key, words) in enumerate(BETWEEN_GAMES_KEYS, start=HINT_ROW + 2):
            basic.print_at(row, 0, key, KEY_CELL)
            basic.print_at(row, 1, f" {words}".ljust(S.COLS - 1), PAGE)


def options_menu(basic: Basic, settings: Settings, path: PathLike | None = None,
                 offer_setup: bool = False, match: Match | None = None) -> Frames:
    """The options on one screen. A key of MENU_KEYS (1-9, then A on) steps its option to
    the next choice (the match length is typed, and asked again with the reason until it is
    1-25 or U); the line shows the new value at once (and Sound sets basic.silent). ENTER
    (or 0) returns, as does a key of BETWEEN_GAMES_KEYS (S, R, T) when `offer_setup`
    (between games). The settings are saved on the way out (to `path`, else the user's
    config directory). `settings` is changed in place; returns an OptionsOutcome. With the
    `match` in progress, a length that is not its own says from when it applies."""
    draw_options(basic, settings, offer_setup)
    draw_hints(basic, offer_setup, length_note(settings, match))
    names = [name for name, _, _ in OPTIONS]
    changed: list[str] = []
    left_with = ""
    while True:
        key = yield from basic.inkey()
        char = key_char(key)
        if key in DONE_KEYS:
            break
        if offer_setup and char in dict(BETWEEN_GAMES_KEYS):
            left_with = char
            break
        if not char or char not in MENU_KEYS:
            basic.beep(*BAD_KEY)
            continue
        index = MENU_KEYS.index(char)
        name = names[index]
        before = getattr(settings, name)          # the option's field, named by the menu row
        if name == "match_length":
            length = yield from ask_match_length(basic)
            settings.set(name, length)
            draw_hints(basic, offer_setup, length_note(settings, match))
            basic.print_at(PROMPT_ROW, 0, "ENTER to play on".center(S.COLS), FOOTER)
        else:
            try:
                settings.cycle(name)
            except SettingsError as exc:          # pragma: no cover - every choice is valid
                show_reason(basic, str(exc))
                continue
        basic.silent = not settings.sound          # the sound option acts at once
        basic.beep(*CLICK)
        draw_option(basic, settings, index)
        if name == "players":
            draw_hints(basic, offer_setup, length_note(settings, match))
        if getattr(settings, name) != before and name not in changed:   # (by name, as above)
            changed.append(name)
    saved = True
    try:
        settings.save(path)
    except OSError as exc:
        saved = False
        show_reason(basic, f"The options could not be saved ({exc.strerror or exc}); "
                           f"they last until you switch off.")
        footer(basic, "Press ENTER")
        yield from basic.wait_enter()
    return OptionsOutcome(tuple(changed), saved, left_with)
