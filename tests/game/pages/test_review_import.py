"""`--review FILE` on the screen (game/pages/import_pages.py), driven frame by frame with keys on
the stand-in machine: the list of the file's games (score, Crawford, who won what and how),
the players' names, a game picked by its number and reviewed on the review's own pages with
those names, X writing the analysed .sgf, back to the list, a wrong number refused in words,
a long file paged, the fault of a damaged file shown under the games it kept; and the console
running it headless. Files are our exports of seeded matches, named as other players."""
import os
import subprocess
import sys

from game.board import screen as S
from game.matchfiles.imports import import_text
from game.matchfiles.matfile import format_mat
from game.pages.import_pages import (
    GAMES_PER_PAGE,
    PROBLEM_ROW,
    PROBLEM_ROWS,
    game_line,
    problem_words,
)
from page_drivers import ImportDriver as Driver
from scripted_matches import CLUB_NAMES as NAMES
from scripted_matches import imported_match, scripted_match


def test_the_list_shows_the_file_the_players_and_each_game_with_its_result():
    imported = imported_match(3, 4, 0.5, 6)
    d = Driver(imported)
    d.until("Game (1-")
    text = d.screen_words()
    assert "REVIEW A MATCH" in text and "club.mat" in text
    assert "Alexandrina v Bo" in text and "3-point match" in text
    for game in imported.games:
        assert game_line(imported, game) in text
    crawford = next(g for g in imported.games if g.crawford)
    assert " C " in game_line(imported, crawford) and "C: the Crawford game" in text
    drop = next(g for g in imported.games if g.how == "drop")
    assert game_line(imported, drop).endswith(f"+{drop.points} (drop)")


def test_a_game_picked_by_number_is_reviewed_with_the_players_names(tmp_path):
    imported = imported_match()
    d = Driver(imported, export_dir=tmp_path)
    d.until("Game (1-")
    d.type("2\n")
    d.until("REVIEW OF GAME 2", row=0, max_frames=20000)
    text = d.screen_words()
    assert "Alexandr" in text and " Bo" in text and " You" not in text
    d.type("x")
    d.until(".sgf/.mat")
    written = next(tmp_path.glob("game2-*.sgf")).read_text()
    assert "PW[Alexandrina]PB[Bo]" in written and "A[" in written
    d.type("\n")                                      # the moves, both sides'
    d.until(":", row=S.BOTTOM_FIRST_ROW - 1)
    assert any(name in d.text()[S.BOTTOM_FIRST_ROW - 1] for name in ("Alexandr", "Bo"))
    d.type("q")
    d.until("Game (1-")                               # the list again
    d.type("q\n")
    assert d.finished


def test_a_number_not_in_the_list_is_refused_in_words():
    d = Driver(imported_match(), checked=False)       # QUICK: the list's answer is under test
    d.until("Game (1-")
    d.type("9\n")
    d.until("No game 9 here: type one listed", row=S.MESSAGE_ROW - 1)
    assert d.text()[0].strip() == "REVIEW A MATCH" and not d.finished   # the list asks again
    d.type("\n")
    d.until("Type a game's number, then ENTER", row=S.MESSAGE_ROW - 1)
    d.type("1\n")
    d.until("REVIEW", row=0)
    assert "Looking at game 1" in d.screen_words()                      # a listed one is taken


def test_more_games_than_a_page_are_paged_with_enter():
    imported = imported_match(None, 3, 0.1, GAMES_PER_PAGE + 3)
    assert len(imported.games) > GAMES_PER_PAGE
    d = Driver(imported)
    d.until("ENTER: more")
    last = imported.games[-1]
    assert game_line(imported, last) not in d.screen_words()
    d.type("\n")
    d.until(game_line(imported, last))
    d.type("\n")
    d.until(game_line(imported, imported.games[0]))


def test_a_damaged_file_shows_its_fault_under_the_games_it_kept():
    m = scripted_match(7, 5, double_rate=0.2, max_games=3)
    text = format_mat(m.record)
    cut = text[:text.index(" Game 3\n") + 60]                # into game 3's moves
    imported = import_text(cut, "club.mat")
    assert [g.number for g in imported.games] == [1, 2]
    d = Driver(imported)
    d.until("Game (1-2)?")
    shown = " ".join(" ".join(d.text()[PROBLEM_ROW:PROBLEM_ROW + PROBLEM_ROWS]).split())
    assert shown == f"Stopped at {problem_words(imported)}"
    assert imported.problem == f"club.mat, {problem_words(imported)}"


def test_the_console_reviews_a_file_headless_and_shows_the_list(tmp_path):
    path = tmp_path / "club.mat"
    path.write_text(format_mat(scripted_match(5, 11, double_rate=0.15, max_games=3).record))
    shot = tmp_path / "list.png"
    proc = subprocess.run([sys.executable, "-m", "game.main", "--review", str(path),
                           "--tape", "instant", "--screenshot", str(shot), "--frames", "120"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path,
                          env=dict(os.environ, SDL_VIDEODRIVER="dummy",
                                   SDL_AUDIODRIVER="dummy",
                                   SPECTRUM_BACKGAMMON_CONFIG_DIR=str(tmp_path)))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.strip() == "" and shot.stat().st_size > 0


def test_the_consoles_runner_shows_the_list_and_a_review_on_the_real_machine(tmp_path,
                                                                           monkeypatch):
    """main.py's --review path in-process: the runner loads the tape on our ROM, then the
    list, then (1 typed) the review's progress page, read off the screen memory."""
    import screentext
    from game.main import Runner
    from game.pages.import_pages import review_instead
    from game.zx.romcheck import machine_for
    monkeypatch.setenv("SPECTRUM_BACKGAMMON_CONFIG_DIR", str(tmp_path))
    path = tmp_path / "club.mat"
    m = scripted_match(5, 11, double_rate=0.15, max_games=2)
    m.record.names.update(NAMES)
    path.write_text(format_mat(m.record))
    machine = machine_for(None)
    runner = Runner(machine, "instant", keys="~~~1\n", resume=False)
    said = []
    assert review_instead(runner, str(path), said.append) and said == []
    seen = []
    for _ in range(1500):
        assert runner(machine)
        machine.run_frame()
        text = "\n".join(screentext.screen_text(machine))
        if "Alexandrina v Bo" in text and not seen:
            seen.append(text)
        if "Looking at game 1" in text:
            break
    else:
        raise AssertionError("no review began:\n" + text)
    assert seen and "REVIEW A MATCH" in seen[0] and "club.mat" in seen[0]
