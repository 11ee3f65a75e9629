"""Every line fits its 32 columns (issue 52 item 8): the pages are drawn on the stand-in
machine while two listeners note any line that lost words: game/board/lines.py fit's
CUT_LISTENERS, and a print_at that would run past the row's end. The help, options,
advice, review (summary, move pages, their key lines, A and R), rollout, dice and
match-over pages; F1's mouse lines agree with help page 3."""
import re

import pytest

from game import commands
from game.board import lines, message_rows
from game.board import screen as S
from game.files.settings import OPTIONS, Settings
from game.main import MOUSE_HELP
from game.model import evaluator as ev
from game.model.dice import Dice
from game.model.match import COMPUTER, HUMAN, Match
from game.model.match_terms import MONEY, MatchTerms
from game.model.position import Position
from game.pages import dice_pages, menus, options_page, review_pages
from game.pages import rollout_pages as RS
from game.scenes.keys import HELP_PAGES
from game.zx.basic import Basic
from gamedriver import RoutineDriver
from page_drivers import ReviewDriver
from review_records import RACE_EVEN, TOO_GOOD_ON_THE_PAGE, blunder_game, too_good_double
from rollout_jobs import five_plays_answer
from spectrum import overlay


@pytest.fixture
def cuts(monkeypatch):
    """The lines that lost words while the test drew its pages."""
    lost = []
    monkeypatch.setattr(lines, "CUT_LISTENERS", [lost.append])
    real_print_at = Basic.print_at

    def print_at(self, row, col, text, *args, **kwargs):
        if col + len(text.rstrip()) > S.COLS:
            lost.append(f"at ({row}, {col}): {text}")
        return real_print_at(self, row, col, text, *args, **kwargs)
    monkeypatch.setattr(Basic, "print_at", print_at)
    return lost


def page_driver(make):
    return RoutineDriver(make)


def test_the_help_pages_and_f1_fit_and_say_k4_enter_is_three_clicks(cuts):
    for title, page in HELP_PAGES:
        assert len(title) <= S.COLS and all(len(line) <= S.COLS for line in page), title
    driver = page_driver(lambda basic: menus.help_screens(basic, HELP_PAGES))
    while not driver.finished:
        driver.type("\n")
    assert cuts == []
    assert all(len(line) <= overlay.MAX_COLUMNS for line in MOUSE_HELP)
    f1 = " ".join(MOUSE_HELP)
    help_page_3 = " ".join(next(page for title, page in HELP_PAGES if "(3/4)" in title))
    assert "K4 ENTER is three clicks" in help_page_3
    assert "K4 ENTER is three" in f1 and "clicks" in f1 and "two clicks" not in f1


def test_the_options_page_fits_with_every_choice_of_every_option(cuts):
    for name, _label, choices in OPTIONS:
        for choice in choices or (None, 1, 25):
            settings = Settings()
            settings.set(name, choice)

            def draw(basic, settings=settings):
                options_page.draw_options(basic, settings, offer_setup=True)
                yield
            page_driver(draw)
    assert cuts == []


def test_the_advice_page_fits(cuts):
    driver = page_driver(lambda basic: menus.advice_screen(
        basic, Position.start(), (6, 5), mover_is_human=True))
    driver.run(3)
    assert cuts == []


def test_the_review_pages_and_their_key_lines_fit(cuts):
    """The summary, every move page with its A page and its key lines (a wrong key shows
    them one after the other), and R's choice page."""
    message_rows.check(list(review_pages.KEYS_HELP))
    for words in review_pages.KEYS_HELP:
        assert len(words) <= S.COLS
        assert not words.rstrip().endswith(tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ")), words
    driver = ReviewDriver(blunder_game(), show_all=True)
    driver.until("ENTER: moves", row=S.ROWS - 1)
    driver.type("\n")
    for _turn in range(4):
        driver.run(2)
        driver.type("a")
        driver.run(4)
        driver.type("\n")
        driver.run(2)
    driver.type("k")                       # a key with no meaning: the key lines, at once
    for _ in range(3):                     # and still (they took turns every 2 s)
        driver.run(150)
        shown = [line.strip() for line in driver.text()[S.MESSAGE_ROW - 2:]]
        assert shown == list(review_pages.KEYS_HELP)
    driver.type("r")                       # the next key acts as on the page
    driver.until("ROLLOUT", row=0)
    assert cuts == []


def test_a_cube_page_whose_proper_action_is_too_good_fits(cuts):
    """"Proper: Too good to double: play on" was 35 columns: the review page raised
    TooManyRows (the program stopped) and its A page lost words; now "Too good to double"."""
    driver = ReviewDriver(too_good_double(TOO_GOOD_ON_THE_PAGE), show_all=True)
    driver.until("ENTER: moves", row=S.ROWS - 1)
    driver.type("\n")
    driver.run(2)
    assert "double" in driver.text()[11]
    assert "Proper: Too good to double" in "\n".join(driver.text()[S.MESSAGE_ROW - 1:])
    driver.type("a")
    driver.run(4)
    driver.type("\n")
    driver.run(2)
    assert cuts == []


def test_the_rollout_result_keeps_its_cut_at_and_a_review_rollout_names_the_plays_listed(cuts):
    """Finding 8: "1,296 games each, 0-ply, cut at 10" lost its "10"; a review rollout said
    "the 5 plays shown" where its page listed 3."""
    start = Position.start()
    plays = [c.play for c in ev.ranked_plays(start, (3, 1), 3, limit=3)]
    job = RS.plays_job(start, plays, trials=1296)
    answer = five_plays_answer(job, stop=True)
    for truncate in (0, 10):
        for level in (3, 4, 5):
            result = RS.result_lines(job, answer, level, truncate)
            assert len(result) <= S.PAGE_LINES
            if truncate:
                assert "cut at 10" in " ".join(result)
    assert cuts == []
    review = ReviewDriver(blunder_game())
    review.until("REVIEW OF GAME 1", row=0)
    review.type("\n")
    review.until("You 31", row=11)
    review.type("a")
    review.run(4)
    listed = sum(1 for line in review.text()[2:] if re.match(r"\d\. ", line))
    review.type("\n")
    review.run(3)
    review.type("r")
    review.until("ROLLOUT", row=0)
    assert f"Rolls out the {listed} plays shown:" in review.text()[2]


def test_the_dice_and_match_over_pages_fit(cuts):
    match = Match(length=3)
    for winner in (HUMAN, COMPUTER, HUMAN):
        match.start_game()
        match.end_game(winner, "gammon" if winner == COMPUTER else "single")
    driver = page_driver(lambda basic: menus.match_over_screen(basic, match, tune=False))
    for _ in range(6):
        driver.type("\n")
    record = blunder_game()
    dice = page_driver(lambda basic: dice_pages.dice_pages(basic, record, Dice(7)))
    for _ in range(60):
        dice.type("\n")
    assert dice.finished
    assert cuts == []


@pytest.mark.parametrize("terms", [MatchTerms(2, 1, 5, 3, 2), MatchTerms(1, 0, 3, 1, 2, 2),
                                   MatchTerms(4, 1), MONEY])
def test_the_cube_pages_fit_in_a_match_with_emg_and_mwc_beside(cuts, terms):
    """The cube advice page (A at a cube question, a review cube page's A) for every doubler's
    name and question, a double/pass that wins the match (MWC 100.0%) included, and a cube
    rollout's result, run to its end or stopped, at every depth and cut: every line within
    its 32 columns and the page within its rows, the units' last line kept."""
    position = Position.from_id(RACE_EVEN)
    decision = ev.cube_decision(position, 3, terms)
    for doubler in ("You", "I", "White", "Black"):
        for offered in (False, True):
            lines = commands.cube_advice_lines(decision, doubler, offered, terms)
            assert len(lines) <= S.PAGE_LINES
            page_driver(lambda basic, lines=lines: menus.cube_advice_screen(basic, lines)).run(2)
    job = RS.cube_job(position, terms, trials=1296)
    for stop in (False, True):
        answer = five_plays_answer(RS.cube_job(position, terms, trials=1296 if stop else 6),
                                   stop)
        for truncate in (0, 10):
            for level in (3, 4, 5):
                result = RS.result_lines(job, answer, level, truncate)
                assert len(result) <= S.PAGE_LINES and result[-1] == RS.units_lines(job)[-1]
                page_driver(lambda basic, r=result: menus.text_screen(basic, "R", r)).run(2)
    assert cuts == []
