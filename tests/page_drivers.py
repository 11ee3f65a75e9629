"""Drivers of the pages outside the board's own play, on the stand-in machine: the review's
screen of a record, the --review program of an imported match, and the real-time waits that the
rollout pages need (their threads run in real time). Used by the pages' tests. Not a test."""
import time

from game.board import screen as S
from game.pages.import_pages import review_program
from game.pages.review_pages import review_screen
from gamedriver import RoutineDriver
from review_records import FEW_GAMES

SCREEN_LEVEL = 3                  # the review screen's: the screen is under test, not the judge
IMPORT_LEVEL = 1                  # the --review program's: the pages are under test, not the judge
SECONDS = 120                     # the longest a page may take to come on a busy machine


class ReviewDriver(RoutineDriver):
    """RoutineDriver on the review screen of `record` (its Screen kept as `screen`); its
    rollout checks play FEW_GAMES unless `roll_games` is given."""

    def __init__(self, record, **options):
        options.setdefault("roll_games", FEW_GAMES)

        def review(basic):
            self.screen = S.Screen(basic.memory, basic.print_at)
            return review_screen(basic, self.screen, record, level=SCREEN_LEVEL, **options)
        super().__init__(review)

    def until(self, words, max_frames=2000, row=None):      # the review's own frame limit
        super().until(words, max_frames, row)


class ImportDriver(RoutineDriver):
    """RoutineDriver on the --review program of `imported` (`checked`: its Review option, the
    CHECKED review unless told)."""

    def __init__(self, imported, export_dir=None, roll_games=FEW_GAMES, checked=True):
        super().__init__(lambda basic: review_program(basic, imported, export_dir,
                                                      level=IMPORT_LEVEL, checked=checked,
                                                      roll_games=roll_games))

    def screen_words(self) -> str:
        return "\n".join(self.text())


def wait_for(driver, words, row=None, seconds=SECONDS):
    """Frames, a few milliseconds apart, until `words` show (on `row` if given)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        lines = driver.text()
        if any(words in line for line in (lines if row is None else [lines[row]])):
            return
        driver.frame()
        time.sleep(0.005)
    raise AssertionError(f"{words!r} never came; screen:\n" + "\n".join(driver.text()))


def wait_for_games(driver, seconds=SECONDS):
    """Frames until the progress page counts a game done; returns the count shown."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        words = driver.text()[2].split()
        if words[:1] == ["Games"] and int(words[1].replace(",", "")) > 0:
            return int(words[1].replace(",", ""))
        driver.frame()
        time.sleep(0.005)
    raise AssertionError("no game was counted; screen:\n" + "\n".join(driver.text()))
