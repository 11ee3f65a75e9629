"""The match exported for analysis: its finished games as one Jellyfish .mat file, named for the
time, in the export folder (settings.export_folder). Not the .mat format itself
(game/matchfiles/matfile.py), nor the review's .sgf of one game (game/pages/review_pages.py)."""
from __future__ import annotations

import os
import time

from game.files.settings import export_folder
from game.matchfiles import matfile
from game.model.record import MatchRecord
from spectrum.safe_write import PathLike


def export_match(record: MatchRecord, export_dir: PathLike | None = None) -> str:
    """The finished games of `record` written as match-YYYYMMDD-HHMMSS.mat in the export folder
    (`export_dir`, else the config directory); returns the words to show: "Saved" and the
    file's name, or why nothing was written."""
    finished = [g.number for g in record.games if g.finished]
    if not finished:
        return "No finished game to export"
    try:
        path = os.path.join(export_folder(export_dir), time.strftime("match-%Y%m%d-%H%M%S.mat"))
        matfile.write_mat(record, path, games=finished)
    except OSError as exc:
        return f"Not saved: {exc.strerror or exc}"
    return f"Saved {os.path.basename(path)}"
