"""The Rules option's 1983 mode seen from the player's files: the options the 1983 inlay card
has no word for, held at the card's game while the mode is on, the window title naming the
mode, and the words for a FULL-mode save that the 1983 mode leaves alone. Not the scenes'
own checks (each asks Settings.rules_1983) and not the option's storage (settings.py)."""
from __future__ import annotations

from dataclasses import replace

from game.files import savegame
from game.files.settings import Settings
from spectrum.safe_write import PathLike

# What the card's program was, whatever the options say: no cube, no match (a game at a
# time, no score), the opening throw, no READY?, the 1983 colours and directions, dice
# thrown by the machine, you against it, no tutor, each man moved in turn.
CARD_VALUES: dict = dict(cube=False, match_length=None, who_starts="roll", confirm_turn=False,
                         board_style="classic", switch_directions=False,
                         switch_tokens=False, set_dice=False, players="human-computer",
                         tutor="off", speed="steps", score_pips=False)


def played(settings: Settings) -> Settings:
    """The options a game is played with: `settings` itself under the FULL rules; under the
    1983 rules a copy with CARD_VALUES (the player's own options are kept for FULL)."""
    return replace(settings, **CARD_VALUES) if settings.rules_1983 else settings


def window_title(base: str, settings: Settings) -> str:
    """The window's title, outside the emulated screen: which rules are on."""
    return f"{base} - {'1983' if settings.rules_1983 else 'FULL'} rules"


def kept_save_words(path: PathLike | None = None) -> str | None:
    """Under the 1983 rules a saved FULL match is neither offered nor written over: the line
    that says so (with its score and cube when it has them), or None when there is no save.
    A save that cannot be read is left as it is for FULL mode to deal with."""
    if not savegame.has_save(path):
        return None
    try:
        saved = savegame.read_save(path)
    except savegame.SaveError:
        saved = None
    what = "a saved match"
    if saved is not None:
        m = saved.match
        extras = []
        if any(m.score.values()):
            extras.append(f"score {m.score[m.sides[0]]}-{m.score[m.sides[1]]}")
        if m.cube_enabled and m.cube_value > 1:
            extras.append(f"cube at {m.cube_value}")
        elif m.cube_enabled:
            extras.append("doubling cube")
        if extras:
            what += f" ({', '.join(extras)})"
    return (f"the 1983 rules keep no save and have no cube or score: {what} is kept for "
            f"the FULL rules; start with --rules full to resume it.")
