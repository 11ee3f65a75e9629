"""The search's settings for one call to the engine (bg.h's bg_search, as gnubg's evalcontext):
a frozen value passed with each ranking, evaluation, cube decision and rollout, never a
module-wide setting. Not the search itself (native/src/search.c)."""
from __future__ import annotations

from dataclasses import dataclass

from native import CData, ffi, lib


class SearchSettingsError(ValueError):
    """Settings the engine refuses (bg_check_search)."""


@dataclass(frozen=True)
class SearchSettings:
    """Level 5's deepest ply (2 or 3), its work and deep budgets (positions evaluated), its
    rollouts of the closest candidates (trials 0 = none, horizon in plies), the 0-ply
    cache switch and the threads a cube decision's or a play judgement's root shares its
    rolls among (the same answer, sooner on idle cores). The defaults are the engine's
    (bg_search_defaults)."""
    plies: int = 2
    work_budget_positions: int = 300_000
    deep_budget_positions: int = 800_000
    roll_trials: int = 0
    roll_horizon_plies: int = 4
    cache: bool = True
    threads: int = 1

    def __post_init__(self) -> None:
        for name, value in (("plies", self.plies),
                            ("work_budget_positions", self.work_budget_positions),
                            ("deep_budget_positions", self.deep_budget_positions),
                            ("roll_trials", self.roll_trials),
                            ("roll_horizon_plies", self.roll_horizon_plies),
                            ("threads", self.threads)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise SearchSettingsError(f"{name} is a whole number, not {value!r}")
        if lib.bg_check_search(self._fill()) < 0:
            raise SearchSettingsError(
                f"the engine refuses these search settings: plies 2 or 3, budgets "
                f"{lib.BG_BUDGET_MIN:,} to {lib.BG_BUDGET_MAX:,} positions, rollouts of 0 to "
                f"{lib.BG_SEARCH_TRIALS_MAX} trials of 1 to {lib.BG_SEARCH_HORIZON_MAX} plies, "
                f"1 to {lib.BG_SEARCH_THREADS_MAX} threads ({self})")

    def _fill(self) -> CData:
        return ffi.new("bg_search *", {
            "plies": self.plies, "work_budget": self.work_budget_positions,
            "deep_budget": self.deep_budget_positions, "roll_trials": self.roll_trials,
            "roll_horizon": self.roll_horizon_plies, "cache": int(bool(self.cache)),
            "threads": self.threads})

    def as_c(self) -> CData:
        """The settings as a `bg_search *` for a C call (the defaults: NULL)."""
        return ffi.NULL if self == DEFAULT_SEARCH else self._fill()


DEFAULT_SEARCH = SearchSettings()
