"""Shared test set-up: headless SDL, and where ../shared (the FUSE vectors, the seeds) lives."""
import os
import pathlib

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

REPO = pathlib.Path(__file__).resolve().parent.parent
SHARED = pathlib.Path(os.environ.get("SPECTRUM_SHARED", REPO.parent / "shared"))
REQUIRE_SHARED = os.environ.get("SPECTRUM_REQUIRE_SHARED") == "1"


def shared_path(*parts: str) -> pathlib.Path:
    """A file under ../shared; skips the test when it is absent, unless CI requires it."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        msg = (f"{path} is missing: put the project's shared/ folder beside the checkout "
               f"(or set SPECTRUM_SHARED to its path)")
        if REQUIRE_SHARED:
            pytest.fail(msg)
        pytest.skip(msg)
    return path
