"""Every run-time dependency in pyproject.toml has a binary wheel on the package index for every
CPython from 3.11 to the newest, on Windows, an ARM Mac and x86-64 and ARM Linux (issue 51): a
player there installs with `pip install .` and never compiles SDL or numpy. Not a test of our own
wheel (tests/house/test_packaging.py) and not an install: it reads the index only.

It asks the index as pip does (the simple API's JSON, PEP 691) and matches the files with
`packaging.tags`, pip's own tag logic: three pages instead of sixty `pip download` runs that would
fetch half a gigabyte of wheels. Needs the network: skipped outside CI only when the index cannot
be reached at all; in CI (CI or SPECTRUM_REQUIRE_SHARED set) an unreachable index fails."""
import json
import os
import tomllib
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from packaging import tags
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename

from conftest import missing_tool
from repo import REPO

INDEX_URL = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple/").rstrip("/") + "/"
OLDEST_PYTHON = (3, 11)              # pyproject's requires-python
# What a player's machine is: the wheel tags pip accepts there (the oldest each platform's
# current pip and OS still take; an installing pip on glibc 2.28 takes every manylinux below it).
PLATFORMS = ("win_amd64", "macosx_11_0_arm64", "manylinux_2_28_x86_64", "manylinux_2_28_aarch64")
INDEX_TIMEOUT_S = 30


def platform_tags(platform: str) -> list[str]:
    """The platform tags an installing pip accepts on PLATFORM, most specific first."""
    if platform.startswith("macosx_"):
        _, major, minor, arch = platform.split("_", 3)
        return list(tags.mac_platforms((int(major), int(minor)), arch))
    if platform.startswith("manylinux_"):
        _, glibc_major, glibc_minor, arch = platform.split("_", 3)
        levels = [f"manylinux_{glibc_major}_{m}_{arch}" for m in range(int(glibc_minor), 4, -1)]
        legacy = {"manylinux_2_17": "manylinux2014", "manylinux_2_12": "manylinux2010",
                  "manylinux_2_5": "manylinux1"}
        for level in list(levels):
            old = legacy.get(level.removesuffix(f"_{arch}"))
            if old:
                levels.append(f"{old}_{arch}")
        return levels
    return [platform]


def accepted_tags(python: tuple[int, int], platform: str) -> set[tags.Tag]:
    """Every wheel tag pip accepts for CPython PYTHON on PLATFORM (abi3 of older Pythons too)."""
    plats = platform_tags(platform)
    return (set(tags.cpython_tags(python, platforms=plats))
            | set(tags.compatible_tags(python, interpreter=f"cp{python[0]}{python[1]}",
                                       platforms=plats)))


def index_files(name: str) -> list[dict]:
    """The files of project NAME on the index (its simple page as JSON)."""
    request = urllib.request.Request(INDEX_URL + canonicalize_name(name) + "/",
                                     headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    with urllib.request.urlopen(request, timeout=INDEX_TIMEOUT_S) as response:
        return json.load(response)["files"]


def wheels(files: list[dict], requirement: Requirement) -> list[tuple[str, frozenset, str]]:
    """(filename, tags, requires-python) of every wheel of a release the requirement takes,
    neither yanked nor a pre-release."""
    found = []
    for entry in files:
        if entry.get("yanked") or not entry["filename"].endswith(".whl"):
            continue
        try:
            _, version, _, wheel_tags = parse_wheel_filename(entry["filename"])
        except InvalidWheelFilename:
            continue
        if version.is_prerelease or not requirement.specifier.contains(version):
            continue
        found.append((entry["filename"], wheel_tags, entry.get("requires-python") or ""))
    return found


def has_wheel(found: list, python: tuple[int, int], platform: str) -> bool:
    """Whether pip on CPython PYTHON and PLATFORM would find one of these wheels."""
    accepted = accepted_tags(python, platform)
    version = f"{python[0]}.{python[1]}"
    return any(wheel_tags & accepted and SpecifierSet(requires).contains(version)
               for _, wheel_tags, requires in found)


def newest_python(files: list[dict]) -> tuple[int, int]:
    """The newest CPython the index's numpy serves (numpy ships wheels for each new CPython)."""
    pythons = [OLDEST_PYTHON]
    for entry in files:
        name = entry["filename"]
        if not name.endswith(".whl") or entry.get("yanked"):
            continue
        try:
            _, version, _, wheel_tags = parse_wheel_filename(name)
        except InvalidWheelFilename:
            continue
        if version.is_prerelease:
            continue
        for tag in wheel_tags:
            digits = tag.interpreter.removeprefix("cp")
            if tag.interpreter.startswith("cp3") and digits.isdigit():
                pythons.append((3, int(digits[1:])))
    return max(pythons)


def runtime_requirements() -> list[Requirement]:
    with open(REPO / "pyproject.toml", "rb") as fh:
        return [Requirement(text) for text in tomllib.load(fh)["project"]["dependencies"]]


def read_index(names: list[str]) -> dict[str, list[dict]]:
    """NAMES' files, read from the index in parallel; an unreachable index skips the test,
    or fails it in CI."""
    with ThreadPoolExecutor(len(names)) as pool:
        try:
            pages = list(pool.map(index_files, names))
        except (urllib.error.URLError, OSError, TimeoutError) as err:
            missing_tool(f"the package index {INDEX_URL} cannot be reached: {err}")
    return dict(zip(names, pages, strict=True))


@pytest.fixture(scope="module")
def index_pages() -> dict[str, list[dict]]:
    """Each run-time dependency's files, read from the index once."""
    return read_index([req.name for req in runtime_requirements()])


def test_pygame_is_pygame_ce():
    """pygame-ce, not pygame: pygame 2.6.1 has no wheel for Python 3.14 on any platform."""
    names = {canonicalize_name(req.name) for req in runtime_requirements()}
    assert "pygame-ce" in names and "pygame" not in names


def test_every_dependency_has_a_wheel_for_every_python_and_platform(index_pages):
    newest = newest_python(index_pages["numpy"])
    pythons = [(3, minor) for minor in range(OLDEST_PYTHON[1], newest[1] + 1)]
    assert newest >= (3, 14), f"numpy's newest CPython read as {newest}: the index page is odd"
    missing = []
    for requirement in runtime_requirements():
        found = wheels(index_pages[requirement.name], requirement)
        assert found, f"{requirement}: no wheel on {INDEX_URL} at all"
        missing += [f"{requirement} for CPython {py[0]}.{py[1]} on {platform}"
                    for py in pythons for platform in PLATFORMS
                    if not has_wheel(found, py, platform)]
    assert not missing, "no binary wheel on the index: " + "; ".join(missing)


def test_pygame_would_fail_on_python_314():
    """The check can fail: the pygame distribution we left has no 3.14 wheel (issue 51),
    and this test's matching says so for each platform."""
    found = wheels(read_index(["pygame"])["pygame"], Requirement("pygame>=2.5"))
    assert has_wheel(found, (3, 11), "win_amd64")
    assert not any(has_wheel(found, (3, 14), platform) for platform in PLATFORMS)


def test_platform_tags_are_what_pip_takes():
    """The tag sets match pip's: older manylinux levels on glibc 2.28, universal2 on an ARM Mac,
    abi3 wheels of older Pythons, and never another architecture."""
    linux = accepted_tags((3, 14), "manylinux_2_28_aarch64")
    assert tags.Tag("cp314", "cp314", "manylinux2014_aarch64") in linux
    assert tags.Tag("cp311", "abi3", "manylinux_2_17_aarch64") in linux
    assert not any(t.platform.endswith("x86_64") for t in linux)
    mac = accepted_tags((3, 14), "macosx_11_0_arm64")
    assert tags.Tag("cp314", "cp314", "macosx_10_15_universal2") in mac
    assert tags.Tag("cp314", "cp314", "macosx_12_0_arm64") not in mac
    assert tags.Tag("cp313", "cp313", "win_amd64") not in accepted_tags((3, 14), "win_amd64")
