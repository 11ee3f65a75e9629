"""Each platform's logic for the player's files, run here with sys.platform set as there
(issue 51): the options and save folder (game/files/folders.py), the old Linux place moved
once, a save Windows will not let us replace (game/files/safe_write.py), the stop signals a
platform has (game/files/shutdown.py), and names with spaces and accents. The code asks
sys.platform, never os.name: os.name set to "nt" on Linux makes pathlib build Windows paths,
which cannot be made here, so the platform logic keys on the one name a test can set."""
import os
import pathlib
import signal
import types

import pytest

from game.files import folders, safe_write, shutdown
from game.files import settings as st
from game.files.savegame import SavedGame, load_game, save_game, save_path
from game.files.settings import Settings, load_settings
from game.matchfiles.imports import read_match_file
from game.model.match import COMPUTER, HUMAN, Match

START_ID = "4HPwATDgc/ABMA"        # gnubg's ID of the starting position
PLATFORMS = ["win32", "darwin", "linux"]
ODD_NAME = "Jörg Müller's Spiele ñ"    # spaces, an apostrophe, letters beyond ASCII


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A fresh home with no override: each platform's own rule decides the folder."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))
    for name in (st.CONFIG_ENV, "XDG_CONFIG_HOME", "APPDATA"):
        monkeypatch.delenv(name, raising=False)
    folders._said.clear()
    return home


def on(monkeypatch, platform: str) -> None:
    monkeypatch.setattr("sys.platform", platform)


def a_match() -> SavedGame:
    m = Match(5, names={HUMAN: "You", COMPUTER: "Spectrum"})
    m.start_game()
    m.start_turn(HUMAN)
    return SavedGame(m, START_ID, HUMAN)


def test_windows_keeps_them_in_appdata(home, monkeypatch):
    on(monkeypatch, "win32")
    monkeypatch.setenv("APPDATA", str(home / "AppData" / "Roaming"))
    assert st.config_dir() == home / "AppData" / "Roaming" / "spectrum-backgammon"
    monkeypatch.delenv("APPDATA")          # a bare environment: the same folder, from home
    assert st.config_dir() == home / "AppData" / "Roaming" / "spectrum-backgammon"


def test_macos_keeps_them_in_application_support(home, monkeypatch):
    on(monkeypatch, "darwin")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "xdg"))   # not a Mac's convention
    assert st.config_dir() == home / "Library" / "Application Support" / "spectrum-backgammon"


def test_linux_follows_xdg_and_ignores_a_relative_xdg_config_home(home, monkeypatch):
    on(monkeypatch, "linux")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "xdg"))
    assert st.config_dir() == home / "xdg" / "spectrum-backgammon"
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/xdg")
    assert st.config_dir() == home / ".config" / "spectrum-backgammon"


@pytest.mark.parametrize("platform", PLATFORMS)
def test_the_override_wins_on_every_platform(home, monkeypatch, platform):
    on(monkeypatch, platform)
    monkeypatch.setenv(st.CONFIG_ENV, str(home / ODD_NAME))
    monkeypatch.setenv("APPDATA", str(home / "appdata"))
    assert st.config_dir() == home / ODD_NAME


@pytest.mark.parametrize("platform", PLATFORMS)
def test_options_and_save_round_trip_in_a_folder_with_spaces_and_accents(
        home, monkeypatch, platform):
    on(monkeypatch, platform)
    monkeypatch.setenv("APPDATA", str(home / ODD_NAME))
    monkeypatch.setenv("HOME", str(home / ODD_NAME))
    Settings(level=2, board_style="midnight").save()
    save_game(a_match())
    assert ODD_NAME in str(st.settings_path()) and ODD_NAME in str(save_path())
    settings, warning = load_settings()
    assert (settings.level, settings.board_style, warning) == (2, "midnight", None)
    saved, warning = load_game()
    assert warning is None and saved.position_id == START_ID


@pytest.mark.parametrize("platform", ["win32", "darwin"])
def test_files_in_the_old_linux_place_are_used_and_moved_once(home, monkeypatch, capsys,
                                                              platform):
    on(monkeypatch, platform)
    monkeypatch.setenv("APPDATA", str(home / "AppData" / "Roaming"))
    old = home / ".config" / "spectrum-backgammon"
    old.mkdir(parents=True)
    monkeypatch.setenv(st.CONFIG_ENV, str(old))      # written by an older version
    save_game(a_match())
    Settings(level=3).save()
    monkeypatch.delenv(st.CONFIG_ENV)
    saved, _ = load_game()
    assert saved is not None and saved.position_id == START_ID
    new = st.config_dir()
    assert new != old and (new / "savegame.json").is_file() and not old.exists()
    assert load_settings()[0].level == 3
    said = capsys.readouterr().err
    assert said.count("Moved") == 1 and "savegame.json" in said and str(new) in said
    st.config_dir()
    assert capsys.readouterr().err == ""                 # once: nothing left to move


def test_a_file_already_in_the_new_place_wins_over_the_old_one(home, monkeypatch, capsys):
    on(monkeypatch, "darwin")
    old = home / ".config" / "spectrum-backgammon"
    new = home / "Library" / "Application Support" / "spectrum-backgammon"
    for folder, level in ((old, 4), (new, 2)):
        Settings(level=level).save(folder / "settings.json")
    save_game(a_match(), old / "savegame.json")
    assert load_settings()[0].level == 2
    assert (new / "savegame.json").is_file() and (old / "settings.json").is_file()
    st.config_dir()
    assert capsys.readouterr().err.count("Moved savegame.json") == 1


def test_old_files_that_cannot_be_moved_are_used_where_they_are(home, monkeypatch, capsys):
    on(monkeypatch, "win32")
    monkeypatch.setenv("APPDATA", str(home / "roaming"))
    (home / "roaming").write_text("a file where the folder should be")
    old = home / ".config" / "spectrum-backgammon"
    save_game(a_match(), old / "savegame.json")
    assert st.config_dir() == old
    assert load_game()[0] is not None
    st.config_dir()
    said = capsys.readouterr().err
    assert said.count("could not be moved") == 1 and "used where they are" in said


@pytest.mark.parametrize("platform", PLATFORMS)
def test_a_folder_that_cannot_hold_the_options_is_an_error_and_defaults_still_load(
        home, monkeypatch, platform):
    on(monkeypatch, platform)
    blocked = home / "blocked"
    blocked.write_text("a file, not a folder: nothing can be made under it, even by root")
    monkeypatch.setenv("APPDATA", str(blocked))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(blocked))
    monkeypatch.setenv("HOME", str(blocked))
    with pytest.raises(OSError):
        Settings(level=2).save()
    settings, _ = load_settings()
    assert settings == Settings()


def test_windows_tries_again_while_another_program_holds_the_file(tmp_path, monkeypatch):
    on(monkeypatch, "win32")
    target = tmp_path / "savegame.json"
    target.write_bytes(b"old")
    real_replace, refusals, pauses = os.replace, [2], []

    def replace(src, dst):
        if refusals[0]:
            refusals[0] -= 1
            raise PermissionError(13, "The process cannot access the file")
        real_replace(src, dst)
    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(safe_write.time, "sleep", pauses.append)
    safe_write.write_atomic(target, b"new")
    assert target.read_bytes() == b"new" and pauses == list(safe_write.REPLACE_PAUSES_S[:2])
    assert list(tmp_path.iterdir()) == [target]


@pytest.mark.parametrize("platform,tries", [("win32", len(safe_write.REPLACE_PAUSES_S) + 1),
                                            ("linux", 1)])
def test_a_save_that_cannot_be_replaced_is_said_and_the_old_one_kept(tmp_path, monkeypatch,
                                                                     platform, tries):
    """Windows: read-only or open elsewhere; tried again, then said. POSIX: said at once."""
    on(monkeypatch, platform)
    target = tmp_path / ODD_NAME / "savegame.json"
    target.parent.mkdir()
    target.write_bytes(b"old")
    calls = []

    def refuse(src, dst):
        calls.append(dst)
        raise PermissionError(13, "Access is denied")
    monkeypatch.setattr(os, "replace", refuse)
    monkeypatch.setattr(safe_write.time, "sleep", lambda s: None)
    with pytest.raises(safe_write.ReplaceRefused) as caught:
        safe_write.write_atomic(target, b"new")
    assert len(calls) == tries and str(target) in str(caught.value)
    assert "read-only" in str(caught.value) and "\n" not in str(caught.value)
    assert target.read_bytes() == b"old" and list(target.parent.iterdir()) == [target]


def test_a_read_only_save_is_replaced_on_posix(tmp_path):
    """A rename over a read-only file is the folder's business on POSIX: the save goes on."""
    path = tmp_path / "savegame.json"
    save_game(a_match(), path)
    path.chmod(0o444)
    save_game(a_match(), path)
    assert load_game(path)[1] is None


def test_only_the_signals_a_platform_has_are_handled():
    windows = types.SimpleNamespace(SIGTERM=15, SIGBREAK=21, SIGINT=2)
    assert shutdown.stop_signals(windows) == (15, 21)
    assert shutdown.stop_signals(types.SimpleNamespace()) == ()
    here = shutdown.stop_signals()
    assert signal.SIGTERM in here and (signal.SIGHUP in here) == hasattr(signal, "SIGHUP")


def test_a_review_file_named_with_spaces_and_accents_is_read(tmp_path):
    folder = tmp_path / ODD_NAME
    folder.mkdir()
    path = folder / "partie à deux.mat"
    path.write_text("; [Site \"somewhere\"]\n\n 3 point match\n\n Game 1\n"
                    " Zoë : 0                      Łukasz : 0\n"
                    "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
                    "      Wins 1 point\n", encoding="utf-8")
    imported = read_match_file(path)
    assert imported.problem is None and len(imported.games) == 1
    missing = read_match_file(pathlib.Path(folder, "nicht da ü.mat"))
    assert "nicht da ü.mat" in missing.problem and "no such file" in missing.problem


# ---------------------------------------------------------------- issue 59 item 13
def refuse_for(monkeypatch, owner, name, folder, error):
    """`owner.name` raises `error` for anything inside `folder` (no read or delete rights
    there, as root cannot be refused them by chmod)."""
    real = getattr(owner, name)

    def refused(*args, **kwargs):
        if str(args[0]).startswith(str(folder)):
            raise error
        return real(*args, **kwargs)
    monkeypatch.setattr(owner, name, refused)


@pytest.mark.parametrize("platform", ["win32", "darwin"])
def test_an_unreadable_old_folder_starts_with_the_defaults_and_says_what_it_could_not_move(
        home, monkeypatch, capsys, platform):
    on(monkeypatch, platform)
    monkeypatch.setenv("APPDATA", str(home / "AppData" / "Roaming"))
    old = home / ".config" / "spectrum-backgammon"
    Settings(level=2).save(old / "settings.json")
    refuse_for(monkeypatch, os, "listdir", old, PermissionError(13, "Permission denied"))
    refuse_for(monkeypatch, os, "scandir", old, PermissionError(13, "Permission denied"))
    folder = st.config_dir()
    assert folder != old
    assert load_settings()[0] == Settings() and load_game()[0] is None
    save_game(a_match())                          # and the game saves in the new place
    assert (folder / "savegame.json").is_file() and (old / "settings.json").is_file()
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and "could not be read (" in said and "Permission denied" in said
    assert "default options" in said and str(old) in said


def test_a_copy_that_cannot_delete_its_original_is_taken_back_and_the_old_place_stays_used(
        home, monkeypatch, capsys):
    on(monkeypatch, "darwin")
    old = home / ".config" / "spectrum-backgammon"
    new = home / "Library" / "Application Support" / "spectrum-backgammon"
    Settings(level=4).save(old / "settings.json")
    save_game(a_match(), old / "savegame.json")
    across_drives = OSError(18, "Invalid cross-device link")
    refuse_for(monkeypatch, os, "rename", home, across_drives)
    refuse_for(monkeypatch, os, "unlink", old, PermissionError(13, "Permission denied"))
    assert st.config_dir() == old
    assert not (new / "savegame.json").exists() and not (new / "settings.json").exists()
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and "used where they are" in said
    later = a_match()
    later.match.score[HUMAN] = 3
    save_game(later)                               # the next save goes to the old place
    folders._said.clear()                          # a later start, still not deletable
    assert st.config_dir() == old and load_game()[0].match.score[HUMAN] == 3


def test_a_newer_save_in_the_old_place_wins_over_a_stale_copy_in_the_new_one_and_is_said(
        home, monkeypatch, capsys):
    on(monkeypatch, "darwin")
    old = home / ".config" / "spectrum-backgammon"
    new = home / "Library" / "Application Support" / "spectrum-backgammon"
    save_game(a_match(), new / "savegame.json")    # the copy an older version left
    os.utime(new / "savegame.json", (1_000_000_000, 1_000_000_000))
    later = a_match()
    later.match.score[HUMAN] = 3
    save_game(later, old / "savegame.json")         # the newer save
    assert st.config_dir() == new
    assert load_game()[0].match.score[HUMAN] == 3 and not old.exists()
    stale = list(new.glob("savegame.json.older-*"))
    assert len(stale) == 1 and load_game(stale[0])[0].match.score[HUMAN] == 0
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and f"newer than the one there, kept as {stale[0].name}" in said
