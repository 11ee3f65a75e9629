"""The one USR client: a request POKEd into the block at PARAMS, USR to the stub at
USR_ENTRY (the host's trap there runs the C door over the machine's memory), the answer
PEEKed back as a typed value. Not the block's layout (native/bg.h, game/zx/usr_layout.py)."""
from __future__ import annotations

from game.model import evaluator, rules
from game.model.match import Match
from game.model.position import Position
from game.zx import usr_layout
from game.zx.basic import Basic


def first_legal_play(position: Position, dice, match=None) -> rules.Play:
    """The computer's choice until the evaluator answers: the engine's first legal play."""
    return rules.legal_plays(position, dice)[0]


def cube_terms(match: Match, doubler: str) -> dict:
    """The cube and match score as the evaluator takes them, for `doubler` on roll."""
    owner = 0 if match.cube_owner is None else (1 if match.cube_owner == doubler else 2)
    terms: dict[str, int | None] = {"cube_value": match.cube_value, "cube_owner": owner}
    if match.length:
        terms.update(match_to=match.length, away_me=match.away(doubler),
                     away_opp=match.away(match.other(doubler)),
                     crawford=1 if match.crawford_game else (2 if match.post_crawford else 0))
    return terms


def play_match(match: Match, mover: str):
    """The match context of `mover`'s play as the evaluator takes it (ranked_plays' match=):
    None in money play, else (length, away_me, away_opp, crawford, cube)."""
    if not match.length:
        return None
    terms = cube_terms(match, mover)
    return (terms["match_to"], terms["away_me"], terms["away_opp"], terms["crawford"],
            terms["cube_value"])


class UsrDoor:
    """The machine code's door on one machine. `level`: a number or a function giving it at
    each call (the options can change it between two decisions); `warm_up`: a thread
    loading the weights, waited for before the first request. KeyError from the
    constructor when the machine code's symbols are not there."""

    def __init__(self, basic: Basic, level, warm_up=None):
        self.basic, self.level, self.warm_up = basic, level, warm_up
        self.entry, self.params = basic.addr("USR_ENTRY"), basic.addr("PARAMS")
        machine, params = basic.machine, self.params
        machine.set_usr_trap(self.entry, lambda: usr_layout.usr_call(machine.memory, params))

    def poke(self, offset: int, data: bytes) -> None:
        for i, value in enumerate(data):
            self.basic.poke(self.params + offset + i, value)

    def request(self, job: int, position: Position, dice=(0, 0), match=None, **terms):
        """POKE the request (and a BEST job's match context), USR, PEEK the answer: a
        rules.Play for BEST, an evaluator.CubeDecision for CUBE, None when the door refused."""
        if self.warm_up is not None:
            self.warm_up.join()
        level = self.level() if callable(self.level) else self.level
        self.poke(0, usr_layout.encode_request(job, position, dice, level, **terms))
        if job == usr_layout.JOB_BEST:   # a score the table cannot take is played as money
            self.poke(usr_layout.PLAY_MATCH_AT,
                      usr_layout.encode_play_match(evaluator.playable_match(match)))
        status = self.basic.usr(self.entry)
        answer = usr_layout.decode_answer(self.basic.memory, self.params)
        if status != 0 or answer.get("status"):
            return None
        if job == usr_layout.JOB_BEST:
            return rules.Play(answer["after"], tuple(answer["steps"]))
        return answer["decision"]


def usr_chooser(basic: Basic, level, warm_up=None):
    """The computer's play as the 1983 program asked for it: the position, dice, level and
    match score POKEd, USR, the play PEEKed back. None without the machine code's symbols."""
    try:
        door = UsrDoor(basic, level, warm_up)
    except KeyError:
        return None

    def choose(position: Position, dice, match=None) -> rules.Play:
        play = door.request(usr_layout.JOB_BEST, position, dice, match)
        return play or first_legal_play(position, dice)   # the door refused: play on
    return choose


def usr_cube(basic: Basic, level, warm_up=None):
    """The computer's cube decisions through the same door: decide(position with the
    doubler on roll, match, doubler) -> an evaluator.CubeDecision, or None when the door
    refused (then the computer does not double and takes). None without the symbols."""
    try:
        door = UsrDoor(basic, level, warm_up)
    except KeyError:
        return None

    def decide(position: Position, match: Match, doubler: str):
        return door.request(usr_layout.JOB_CUBE, position, **cube_terms(match, doubler))
    return decide


def evaluator_cube(settings):
    """The computer's cube decisions straight from the evaluator (no machine code) at the
    level in the options. Returns decide(position, match, doubler) -> CubeDecision."""
    def decide(position: Position, match: Match, doubler: str):
        return evaluator.cube_decision(position, settings.level, **cube_terms(match, doubler))
    return decide
