"""The end of a game: the winner and the kind of win in a banner on the board, a tune,
then a key for a new game, or one of BANNER_KEYS (R reviews the game, O the options first);
after a demo game the demo runs on unless a key stops it. Not the score keeping
(game/model/match.py) nor the review itself (game/pages/review_pages.py)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from game.board import message_rows, numbers
from game.board import screen as S
from game.board.lines import fit
from game.interfaces import Frames, Screen
from game.model.match import COMPUTER, DROP, HUMAN, RESIGN, GameResult, Match
from game.pages.menus import LOSE_TUNE, WIN_TUNE, key_char
from game.pages.review_pages import review_screen
from game.scenes.state import Game
from game.scenes.timing import DEMO_NEXT_GAME_FRAMES
from game.words import SCORE_CAPPED, SERIES_FULL, result_words, say
from game.zx.basic import Basic


def fit_banner(words: str) -> str:
    """The game-over words in one 32-column row: 'points' shortened to 'pts', then the
    article dropped, only when the whole does not fit ("WHITE WINS a single game ...")."""
    for short in (words, words.replace(" points)", " pts)").replace(" point)", " pt)")):
        if len(short) <= S.COLS:
            return short
    return fit(short.replace(" a ", " ", 1))


def banner_words(result: GameResult | int, board_game: Game | None = None) -> tuple[str, str]:
    """(the winner, the banner) of a match.GameResult, or of +/-1..3 from the human's side
    as in 1983."""
    kind: int | str                      # 1..3, or a GameResult's kind ("gammon", "drop")
    if isinstance(result, int):
        winner_side = HUMAN if result > 0 else COMPUTER
        kind, points = abs(result), abs(result)
    else:
        winner_side, kind, points = result.winner, result.kind, result.points
    who = say("wins", winner_side)
    if kind in (DROP, RESIGN):
        loser = board_game.state.match.other(winner_side) if board_game else \
            (COMPUTER if winner_side == HUMAN else HUMAN)
        return winner_side, f"{who}: {result_words(kind, points, loser)}"
    return winner_side, f"{who} {result_words(kind, points)}"


def review_game(board_game: Game, number: int | None = None) -> Frames:
    """R: the review of game `number` of the match (the last by default) on its own pages,
    then back to the caller (which redraws). Both sides' decisions are shown when both are
    typed (or both the computer's); the computer's appear on C otherwise."""
    table, state = board_game.table, board_game.state
    m = state.match
    yield from review_screen(table.basic, table.screen, m.record, number, cube=m.cube_enabled,
                             show_all=state.typed[state.bottom] == state.typed[state.top],
                             export_dir=board_game.saving.export_dir,
                             checked=table.settings.checked_review)


@dataclass(frozen=True)
class BannerKey:
    """A key at the game-over banner besides "any key for a new game"."""
    key: str                      # the letter, either case
    words: str                    # after the key on the message line
    handler: Callable[[Game], Frames] | None   # a generator, the banner shown again after;
                                  # None: game_over returns the key (program.py acts on it)
    at_match_end: bool            # offered when the game ended the match too


BANNER_KEYS = (
    BannerKey("R", "review the game", review_game, True),
    BannerKey("O", "options", None, False),
)


def draw_banner(screen: Screen, banner: str) -> None:
    row = S.BOTTOM_FIRST_ROW - 1
    cube = screen.cube
    if cube and S.CUBE_ROW.get(S.cube_side(cube[1])) in (row, row - S.CUBE_ROWS + 1):
        screen.clear_cube()                     # the centred cube would be cut in half
    screen.text(row, 0, fit_banner(banner).center(S.COLS),
                S.attr(S.BLACK, S.YELLOW, bright=True))


def show_new_score(screen: Screen, match: Match | None) -> None:
    """The panel's match score with the game just ended counted in (it showed the score the
    game began at, a point or more behind the banner beside it). Money play shows none."""
    bottom_name, top_name, score = screen.numbers
    if match is None or score is None or not match.length:
        return
    bottom, top = match.sides
    screen.numbers = (bottom_name, top_name, (match.score[bottom], match.score[top]))
    numbers.draw(screen)


def banner_lines(match_over: bool) -> tuple[list[str], tuple]:
    """The message rows under the banner, shown at once (the keys above, "Press any key"
    on the message line), and the keys they list."""
    keys = tuple(k for k in BANNER_KEYS if k.at_match_end or not match_over)
    first = "Press any key" if match_over else "Press any key for a new game"
    return [fit("  ".join(f"{k.key} {k.words}" for k in keys), message_rows.ROW_COLS),
            first], keys


def game_over(basic: Basic, screen: Screen, result: Any, board_game: Game | None = None) -> Frames:
    """The banner, a tune, then a new game on a key (a BANNER_KEYS key runs its handler and
    comes back here; under the 1983 rules the winner only, and any key a new game). Returns
    the key pressed; after a demo game, None when the demo runs on or "stop" when a key
    stopped it."""
    winner_side, banner = banner_words(result, board_game)
    card = board_game is not None and board_game.table.settings.rules_1983
    if card:                                   # the 1983 rules: a winner, no points
        banner = say("wins", winner_side)
    show_new_score(screen, board_game.state.match if board_game is not None else None)
    draw_banner(screen, banner)                # over the pips' row numbers.draw wrote
    for ms, hz in (WIN_TUNE if winner_side != COMPUTER else LOSE_TUNE):
        basic.beep(ms, hz)
    state = board_game.state if board_game is not None else None
    match = state.match if state is not None else None
    if state is not None and not state.typed[state.bottom] and not (match and match.is_over):
        screen.message("Demo: any key stops it")   # the demo runs on by itself
        key = yield from basic.pause(DEMO_NEXT_GAME_FRAMES)
        return None if key is None else "stop"
    lines, keys = banner_lines(match is not None and match.is_over)
    if board_game is None or card:                   # nothing to review or change in 1983
        lines, keys = lines[-1:], ()
    if match is not None:                            # what ended or stops the series, above
        notes = [SERIES_FULL] * match.series_full + [SCORE_CAPPED] * match.score_capped
        lines = [*notes, *lines]
    while True:
        key = yield from shown_at_once(basic, screen, lines)
        chosen = next((k for k in keys if key_char(key) == k.key), None)
        if chosen is None or chosen.handler is None or board_game is None:
            return key                         # (no keys are offered without a game)
        yield from chosen.handler(board_game)
        board_game.redraw()
        draw_banner(screen, banner)


def shown_at_once(basic: Basic, screen: Screen, lines: list[str]) -> Frames:
    """`lines` on the message line and the rows above it, all at once and still
    (game/board/message_rows.py), until a key; returns it."""
    message_rows.show(screen, lines)
    return (yield from basic.inkey())
