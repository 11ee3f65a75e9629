"""The dice on trial, on the Spectrum screen: three pages from the options between games (T)
and the match-over page (T): each side's numbers and doubles against the 1 in 6 and 1 in 36
expected, the chi-square tests in plain words, and each side's luck per game. Generators (one
yield = one frame); the numbers are game/analysis/dicestats.py's."""
from __future__ import annotations

from game.analysis import dicestats as D
from game.board import screen as S
from game.board.lines import fit, rom_text, wrap
from game.interfaces import Frames
from game.model.dice import Dice
from game.model.match_terms import MatchTerms
from game.model.record import MatchRecord
from game.pages import menus
from game.pages.review_pages import NAME_CHARS
from game.words import SIDE_NAMES
from game.zx.basic import Basic

TITLE = "THE DICE ON TRIAL"
HEADER = S.attr(S.WHITE, S.BLUE)       # a table's column names
HEADERS = ("Number", "Double", "Game", "Each number")
GAMES_SHOWN = 13                       # the last games' luck on the luck page


def side_word(record: MatchRecord, side: str) -> str:
    return SIDE_NAMES.get(side) or rom_text(record.names.get(side, side.capitalize()))[:NAME_CHARS]


def counts_lines(record: MatchRecord, counts: dict, source: str) -> list[str]:
    """Page 1: the dice source, the rolls, each number and each double, seen and expected."""
    a, b = record.sides
    sa, sb = counts[a], counts[b]
    names = (side_word(record, a), side_word(record, b))
    head = f"{'':6}{names[0][:5]:>6}{'expect':>7}{names[1][:5]:>6}{'expect':>7}"

    def row(label: str, seen_a: int, exp_a: float, seen_b: int, exp_b: float) -> str:
        return f"{label:<6}{seen_a:>6}{exp_a:>7.1f}{seen_b:>6}{exp_b:>7.1f}"
    lines = [source, fit(f"Rolls: {names[0].lower()} {sa.rolls}, {names[1].lower()} {sb.rolls}"),
             "", "Number" + head[6:]]
    for face in range(D.FACES):
        lines.append(row(f"  {face + 1}", int(sa.numbers[face]), sa.dice / D.FACES,
                         int(sb.numbers[face]), sb.dice / D.FACES))
    lines += ["", "Double" + head[6:]]
    for face in range(D.FACES):
        lines.append(row(f" {face + 1}-{face + 1}", int(sa.doubles[face]), sa.pair_rolls / 36,
                         int(sb.doubles[face]), sb.pair_rolls / 36))
    lines.append(row("All", sa.all_doubles, sa.pair_rolls / D.FACES, sb.all_doubles,
                     sb.pair_rolls / D.FACES))
    lines += ["(A game's first roll is left out", "of the doubles.)"]
    return lines


def trials_lines(record: MatchRecord, counts: dict) -> list[str]:
    """Page 2: for each side, the chi-square test of the numbers and of the doubles."""
    lines = ["Are the dice fair? Chi-square:"]
    for title, test in (("Each number, 1 in 6 of the dice", D.numbers_trial),
                        ("Doubles, 1 in 6 of the rolls", D.doubles_trial)):
        lines += ["", title.ljust(S.COLS)]
        for side in record.sides:
            result = test(counts[side])
            lines.append(fit(f"{side_word(record, side)}: {result.statistic:.2f}, "
                             f"{result.df} d.f., p = {result.p:.2f}"))
            lines += [" " + line for line in wrap(D.trial_words(result), S.COLS - 1)]
    return lines


def luck_lines(record: MatchRecord, lucks: list) -> list[str]:
    """Page 3: each side's luck per game and the total, in the review's units (review.luck_of
    summed: EMG at each game's score in a match the table takes, else points a game per
    unit of cube), so a game's figure is the one its review's summary gives beside the
    errors; the page says which."""
    a, b = record.sides
    units = ["what its rolls gave it, in EMG", "at each game's score (GNU",
             "Backgammon's units), as the", "review's summary says it."] \
        if MatchTerms.table_takes(record.length) else \
        ["what its rolls gave it, in", "points a game per unit of cube,",
         "as the review's summary says it."]
    lines = ["Each side's luck, game by game:", *units, "",
             f"{'Game':<6}{side_word(record, a)[:8]:>9}{side_word(record, b)[:8]:>9}"
             .ljust(S.COLS)]
    if not lucks:
        return lines + ["", "No game played yet."]
    total = {a: 0.0, b: 0.0}
    first = max(0, len(lucks) - GAMES_SHOWN)
    for _number, luck in lucks:
        if luck is not None:
            total[a] += luck[a]
            total[b] += luck[b]
    for number, luck in lucks[first:]:
        if luck is None:
            lines.append(f"{number:>4}  {'-':>9}{'-':>9}")
        else:
            lines.append(f"{number:>4}  {luck[a]:>+9.3f}{luck[b]:>+9.3f}")
    lines.append(f"{'All':<6}{total[a]:>+9.3f}{total[b]:>+9.3f}")
    return lines


def weigh_luck(basic: Basic, record: MatchRecord) -> Frames:
    """Each game's luck, one game a frame, "Weighing the luck" on the message line; returns
    [(game number, {side: luck} or None)]."""
    lucks = []
    for game in record.games:
        basic.print_at(S.MESSAGE_ROW, 0, f"Weighing the luck: game {game.number}"
                       .ljust(S.COLS), menus.FOOTER)
        yield
        lucks.append((game.number, D.luck_by_game(record, game)))
    return lucks


def dice_pages(basic: Basic, record: MatchRecord, dice: Dice, set_dice: bool = False) -> Frames:
    """T: the three pages of the dice on trial for `record` (a MatchRecord), the source
    `dice` (game/dice.py's Dice) named; ENTER turns each page. The caller redraws."""
    counts = D.count_rolls(record)
    lucks = yield from weigh_luck(basic, record)
    pages = [(f"{TITLE} (1/3)", counts_lines(record, counts, D.source_words(dice, set_dice))),
             (f"{TITLE} (2/3)", trials_lines(record, counts)),
             (f"{TITLE} (3/3)", luck_lines(record, lucks))]
    for number, (title, lines) in enumerate(pages, start=1):
        foot = "ENTER to go back" if number == len(pages) else "ENTER for the next page"
        yield from menus.text_screen(basic, title, lines, foot, ink=header_ink)


def header_ink(line: str) -> int | None:
    """A table's header row in HEADER's colours, the rest in the page's."""
    return HEADER if line.startswith(HEADERS) else None
