"""The colours a board is drawn in: the attribute byte, the contrast rule, and Palette,
every colour of one board style of game/files/settings.py (with STYLE_EXTRAS) with the tokens
swapped or not. Not where anything is drawn (game/board/screen.py)."""
from dataclasses import dataclass
from typing import TYPE_CHECKING

from spectrum.hw import BLACK, BLUE, CYAN, GREEN, WHITE

if TYPE_CHECKING:       # for the annotations only: settings is read when a palette is made
    from game.files.settings import BoardStyle


def attr(ink: int, paper: int, bright: bool = False, flash: bool = False) -> int:
    """An attribute byte: FLASH bit 7, BRIGHT bit 6, PAPER bits 5-3, INK bits 2-0."""
    return (0x80 if flash else 0) | (0x40 if bright else 0) | (paper << 3) | ink


def contrast(colour: int) -> int:
    """Black on the light colours (green, cyan, yellow, white), white on the dark ones: the
    colour numbers run from dark to light (G*4 + R*2 + B)."""
    return BLACK if colour >= GREEN else WHITE


# What game/files/settings.py's BoardStyle does not say, by style name: the papers of the trays of
# the style's white and black men, the ink of the letters on the frame and of the bar's "z",
# and optionally the cube's body colour (else the contrast of the panel's paper). A style
# missing here gets contrasting colours worked out from its own.
STYLE_EXTRAS = {
    "classic": dict(white_tray=BLUE, black_tray=CYAN, letters=BLACK, bar_ink=WHITE),
    "tournament": dict(white_tray=BLACK, black_tray=WHITE, letters=WHITE, bar_ink=BLACK),
    "midnight": dict(white_tray=BLACK, black_tray=BLACK, letters=WHITE, bar_ink=WHITE),
    "parchment": dict(white_tray=BLUE, black_tray=WHITE, letters=WHITE, bar_ink=WHITE),
    "mono": dict(white_tray=BLACK, black_tray=WHITE, letters=WHITE, bar_ink=WHITE),
}


@dataclass(frozen=True)
class Palette:
    """Every colour a Screen draws with, worked out from one board style of game/files/settings.py
    (and STYLE_EXTRAS) and from whether the tokens are swapped."""
    name: str
    frame: int
    board: int
    points: tuple
    bar: int
    human_men: int                    # ink of the human's (white side's) men
    computer_men: int
    bright: bool
    human_tray: int                   # papers of the human's (bottom) and the computer's trays
    computer_tray: int
    letters: int
    bar_ink: int
    cube_ink: int                     # the cube's body; its figures show the panel's paper

    @classmethod
    def of(cls, style: "str | BoardStyle | None" = None,
           tokens_swapped: bool = False) -> "Palette":
        """`style`: a name in settings.BOARD_STYLES, a BoardStyle, or None (classic)."""
        from game.files import settings
        if style is None:
            style = settings.BOARD_STYLES["classic"]
        elif isinstance(style, str):
            if style not in settings.BOARD_STYLES:
                raise ValueError(f"no board style {style!r}: "
                                 + ", ".join(settings.STYLE_ORDER))
            style = settings.BOARD_STYLES[style]
        extras = STYLE_EXTRAS.get(style.name, {})
        human, computer = style.white_men, style.black_men
        human_tray = extras.get("white_tray", style.board if style.white_men != style.board
                                else contrast(style.white_men))
        computer_tray = extras.get("black_tray", contrast(style.black_men))
        if tokens_swapped:                       # each tray's paper goes with its men
            human, computer = computer, human
            human_tray, computer_tray = computer_tray, human_tray
        frame_ink = contrast(style.frame)
        return cls(style.name, style.frame, style.board, tuple(style.points), style.bar,
                   human, computer, bool(style.bright), human_tray, computer_tray,
                   extras.get("letters", frame_ink), extras.get("bar_ink", contrast(style.bar)),
                   extras.get("cube_ink", frame_ink))

    def a(self, ink: int, paper: int) -> int:
        return attr(ink, paper, self.bright)

    @property
    def frame_attr(self) -> int:
        return self.a(self.letters, self.frame)

    def men(self, human: bool) -> int:
        return self.human_men if human else self.computer_men

    def die_attr(self, human: bool) -> int:
        """A side's die: the colour of its men, pips in the contrasting colour."""
        colour = self.men(human)
        return attr(contrast(colour), colour, bright=True)
