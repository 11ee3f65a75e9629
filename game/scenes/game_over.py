"""The end of a game: the winner and the kind of win in a banner on the board, a tune,
then a key for a new game (O: the options first); after a demo game the demo runs on
unless a key stops it. Not the score keeping (game/match.py)."""
from game import screen as S
from game.match import COMPUTER, HUMAN
from game.scenes.timing import DEMO_NEXT_GAME_FRAMES, LOSE_TUNE, WIN_TUNE
from game.words import result_words, say


def fit_banner(words: str) -> str:
    """The game-over words in one 32-column row: 'points' shortened to 'pts', then the
    article dropped, only when the whole does not fit ("WHITE WINS a single game ...")."""
    for short in (words, words.replace(" points)", " pts)").replace(" point)", " pt)")):
        if len(short) <= S.COLS:
            return short
    return short.replace(" a ", " ", 1)[:S.COLS]


def banner_words(result, game=None) -> tuple[str, str]:
    """(the winner, the banner) of a match.GameResult, or of +/-1..3 from the human's side
    as in 1983."""
    if isinstance(result, int):
        winner_side = HUMAN if result > 0 else COMPUTER
        kind, points = abs(result), abs(result)
    else:
        winner_side, kind, points = result.winner, result.kind, result.points
    who = say("wins", winner_side)
    if kind == "drop":
        loser = game.match.other(winner_side) if game else \
            (COMPUTER if winner_side == HUMAN else HUMAN)
        return winner_side, f"{who}: {result_words(kind, points, loser)}"
    return winner_side, f"{who} {result_words(kind, points)}"


def game_over(basic, screen, result, game=None):
    """The banner, a tune, then a new game on a key. Returns the key pressed; after a demo
    game, None when the demo runs on or "stop" when a key stopped it."""
    winner_side, banner = banner_words(result, game)
    row = S.BOTTOM_FIRST_ROW - 1
    cube = screen.cube
    if cube and S.CUBE_ROW.get(S.cube_side(cube[1])) in (row, row - S.CUBE_ROWS + 1):
        screen.clear_cube()                     # the centred cube would be cut in half
    screen.text(row, 0, fit_banner(banner).center(S.COLS),
                S.attr(S.BLACK, S.YELLOW, bright=True))
    for ms, hz in (WIN_TUNE if winner_side != COMPUTER else LOSE_TUNE):
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
