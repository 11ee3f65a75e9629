"""The review on the screen (game/pages/review_pages.py), driven frame by frame with keys on the
stand-in machine: progress, a key stopping the computation (what is done is kept, R carries
on), the summary page, each decision on the board with its mark, the computer's moves on C,
and games that cannot be reviewed shown with their reason. Records are built in code; where
the pages and keys alone are under test the review is the QUICK one (a tenth of the CHECKED
review's work; the stop keeps the CHECKED review, whose rollout checks it cuts short)."""
from game.board import screen as S
from game.matchfiles.matfile import parse_mat
from game.model.match import HUMAN
from game.pages.review_pages import headline
from gamedriver import key_code
from gnubg_tools import comparable, gnubg_round_trip
from page_drivers import SCREEN_LEVEL as LEVEL
from page_drivers import ReviewDriver as Driver
from review_records import FEW_GAMES, blunder_game, one_game, played_out


def test_progress_then_the_summary_with_both_sides_ratings():
    d = Driver(blunder_game(), checked=False)
    d.until("REVIEW", row=0)
    assert "Any key stops" in d.text()[S.ROWS - 1]
    d.until("REVIEW OF GAME 1", row=0)
    text = "\n".join(d.text())
    assert "Rating (GNU Backgammon's):" in text
    assert " You: " in text and " Me: " in text
    assert "ENTER: moves" in d.text()[S.ROWS - 1]


def test_each_decision_on_the_board_with_its_mark_and_the_best_play():
    d = Driver(blunder_game(), show_all=True, checked=False)
    d.until("ENTER: moves", row=S.ROWS - 1)
    d.type("\n")
    d.until("1 You 31:", row=11)
    assert "best" in d.text()[11]
    assert "The best play." in d.text()[S.MESSAGE_ROW]
    assert d.screen.dice[True][0] == 3 and d.screen.dice[False][0] == 1
    while "1 You" in d.text()[11] or "2 Me" in d.text()[11] or "3 You" in d.text()[11]:
        d.type("\n")
    line = d.text()[11]
    assert line.startswith("4 Me 31:") and "??" in line
    assert d.text()[S.MESSAGE_ROW].startswith("Best ")
    d.type("b")
    assert d.text()[11].startswith("3 You 21:")
    d.type("q")
    assert d.finished and d.result.complete


def test_only_your_decisions_until_c_shows_the_computers():
    d = Driver(blunder_game(), checked=False)
    d.until("ENTER: moves", row=S.ROWS - 1)
    d.type("\n")
    seen = []
    for _ in range(6):
        seen.append(d.text()[11].split(":")[0])
        d.type("\n")
        if "REVIEW OF GAME" in d.text()[0]:
            break
    assert seen and all(" You " in s for s in seen)
    d.type("\nc")                                   # the moves again, then C
    d.until("ENTER: moves", row=S.ROWS - 1)
    d.type("\n")
    shown = set()
    for _ in range(10):
        shown.add(d.text()[11].split(" ")[1])
        d.type("\n")
        if "REVIEW OF GAME" in d.text()[0]:
            break
    assert {"You", "Me"} <= shown


def test_a_key_during_the_computation_stops_it_keeping_the_turns_done_and_r_carries_on():
    record = played_out(3)
    d = Driver(record)
    d.until("Turn 3 of", row=12)
    d.frame(key_code("x"))                          # any key
    d.until("REVIEW OF GAME 1", row=0)
    text = "\n".join(d.text())
    assert "Stopped:" in text and "R carries on." in text
    d.type("r")
    d.until("REVIEW OF GAME 1", row=0, max_frames=5000)
    assert "Stopped:" not in "\n".join(d.text())
    d.type("q")
    assert d.finished and d.result.complete
    assert len([i for i in d.result.items if i.kind == "move"]) == \
        len([a for a in record.games[0].actions if a.kind == "move"])


def test_a_game_that_cannot_be_reviewed_shows_why_and_returns_nothing():
    from game.model.record import MatchRecord
    for record, words in ((MatchRecord(0), "no game to review"),
                          (one_game(), "no moves to review")):
        d = Driver(record)
        d.until("REVIEW", row=0)
        assert words in " ".join(d.text()).replace("  ", " ")
        d.type("\n")
        assert d.finished and d.result is None
    damaged = blunder_game()
    damaged.games[0].actions[2].play = "6/1"       # a 5 with 21
    d = Driver(damaged)
    d.until("damaged")
    d.type("\n")
    assert d.finished and d.result is None


def test_the_headline_fits_one_row_with_the_mark_at_its_end():
    from game.analysis.judge import review_game
    r = review_game(blunder_game(), level=LEVEL, roll_games=FEW_GAMES)   # the lines, not the check
    for item in r.items:
        line = headline(item, HUMAN)
        assert len(line) <= S.COLS
        if item.mark:
            assert line.rstrip().endswith(f"{item.mark} -{item.loss:.3f}")


def test_x_on_the_summary_writes_the_games_sgf_and_mat_names_the_folder_or_says_why_not(
        tmp_path):
    """X: gameN-....sgf with its analysis and the game alone as gameN-....mat, their name
    and the folder on the page (a long folder keeps its end)."""
    d = Driver(blunder_game(), export_dir=str(tmp_path), checked=False)
    d.until("ENTER: moves", row=S.ROWS - 1)
    d.type("x")
    d.until(".sgf/.mat")
    files = list(tmp_path.glob("game1-*.sgf"))
    mats = list(tmp_path.glob("game1-*.mat"))
    assert len(files) == len(mats) == 1 and files[0].stem == mats[0].stem
    text = "\n".join(d.text())
    assert f"{files[0].stem}.sgf/.mat" in text
    folder_line = next(line.strip() for line in d.text() if line.strip().startswith("in "))
    assert str(tmp_path).endswith(folder_line[3:].lstrip("."))
    assert "\n;W[31hefe]A[0][hefe E ver 3 " in files[0].read_text()   # with its analysis
    code, output = gnubg_round_trip(mats[0], tmp_path / "gnubg.mat", tmp_path)
    assert code == 0, output                    # gnubg -t reads the .mat: the same game
    assert comparable(parse_mat((tmp_path / "gnubg.mat").read_text())) == \
        comparable(parse_mat(mats[0].read_text()))
    assert len(parse_mat(mats[0].read_text()).games) == 1
    assert "REVIEW OF GAME 1" in d.text()[0]
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    d = Driver(blunder_game(), export_dir=str(blocker / "sub"), checked=False)
    d.until("ENTER: moves", row=S.ROWS - 1)
    d.type("x")
    d.until("Not saved:")
    assert "REVIEW OF GAME 1" in d.text()[0]
    d.type("q")
    assert d.finished and d.result.complete
