"""The one USR client: a request POKEd into the block at PARAMS, USR to the stub at
USR_ENTRY (the host's trap there runs the C door over the machine's memory), the answer
PEEKed back as a typed value. Not the block's layout (native/bg.h, game/zx/usr_layout.py)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from threading import Thread
from typing import Any

from game.files.settings import Settings
from game.model import evaluator, rules
from game.model.match import Match
from game.model.match_terms import MONEY, MatchTerms
from game.model.position import Position
from game.zx import usr_layout
from game.zx.basic import Basic

Level = int | Callable[[], int]    # a level, or a function giving it at each call


def first_legal_play(position: Position, dice: Sequence[int],
                     terms: MatchTerms = MONEY) -> rules.Play:
    """The computer's choice until the evaluator answers: the engine's first legal play."""
    return rules.legal_plays(position, dice)[0]


class UsrDoor:
    """The machine code's door on one machine. `level`: a number or a function giving it at
    each call (the options can change it between two decisions); `warm_up`: a thread
    loading the weights, waited for before the first request. KeyError from the
    constructor when the machine code's symbols are not there."""

    def __init__(self, basic: Basic, level: Level, warm_up: Thread | None = None) -> None:
        self.basic, self.level, self.warm_up = basic, level, warm_up
        self.entry, self.params = basic.addr("USR_ENTRY"), basic.addr("PARAMS")
        machine, params = basic.machine, self.params
        machine.set_usr_trap(self.entry, lambda: usr_layout.usr_call(machine.memory, params))

    def poke(self, offset: int, data: bytes) -> None:
        for i, value in enumerate(data):
            self.basic.poke(self.params + offset + i, value)

    # the answer by the job (a rules.Play, an evaluator.CubeDecision, or None): hence Any
    def request(self, job: int, position: Position, dice: Sequence[int] = (0, 0),
                terms: MatchTerms = MONEY) -> Any:
        """POKE the request with the side on roll's terms, USR, PEEK the answer: a
        rules.Play for BEST, an evaluator.CubeDecision for CUBE, None when the door refused."""
        if self.warm_up is not None:
            self.warm_up.join()
        level = self.level() if callable(self.level) else self.level
        self.poke(0, usr_layout.encode_request(job, position, dice, level, terms))
        status = self.basic.usr(self.entry)
        answer = usr_layout.decode_answer(self.basic.memory, self.params)
        if status != 0 or answer.get("status"):
            return None
        if job == usr_layout.JOB_BEST:
            return rules.Play(answer["after"], tuple(answer["steps"]))
        return answer["decision"]


def usr_chooser(basic: Basic, level: Level, warm_up: Thread | None = None
                ) -> Callable[[Position, Sequence[int], MatchTerms], rules.Play] | None:
    """The computer's play as the 1983 program asked for it: the position, dice, level and
    match score POKEd, USR, the play PEEKed back. None without the machine code's symbols."""
    try:
        door = UsrDoor(basic, level, warm_up)
    except KeyError:
        return None

    def choose(position: Position, dice: Sequence[int], terms: MatchTerms = MONEY) -> rules.Play:
        play = door.request(usr_layout.JOB_BEST, position, dice, terms)
        return play or first_legal_play(position, dice)   # the door refused: play on
    return choose


def usr_cube(basic: Basic, level: Level, warm_up: Thread | None = None
             ) -> Callable[[Position, Match, str], evaluator.CubeDecision | None] | None:
    """The computer's cube decisions through the same door: decide(position with the
    doubler on roll, match, doubler) -> an evaluator.CubeDecision, or None when the door
    refused (then the computer does not double and takes). None without the symbols."""
    try:
        door = UsrDoor(basic, level, warm_up)
    except KeyError:
        return None

    def decide(position: Position, match: Match, doubler: str) -> evaluator.CubeDecision | None:
        return door.request(usr_layout.JOB_CUBE, position, terms=match.terms(doubler))
    return decide


def evaluator_cube(settings: Settings) -> Callable[[Position, Match, str],
                                                   evaluator.CubeDecision]:
    """The computer's cube decisions straight from the evaluator (no machine code) at the
    level in the options. Returns decide(position, match, doubler) -> CubeDecision."""
    def decide(position: Position, match: Match, doubler: str) -> evaluator.CubeDecision:
        return evaluator.cube_decision(position, settings.level, match.terms(doubler))
    return decide
