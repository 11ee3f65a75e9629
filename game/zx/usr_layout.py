"""The USR request block's byte layout, as native/bg.h's BG_USR_* constants place it: a
request encoded to POKE at PARAMS, the C door called on the machine's memory, the answer
decoded from it. Not the client that POKEs and PEEKs (game/zx/usr.py), nor the judgement."""
from __future__ import annotations

from collections.abc import Sequence

from game.model.evaluator import (
    CubeDecision,
    Probabilities,
    _position,
    ensure_loaded,
)
from game.model.match_terms import MONEY, MatchTerms
from game.model.position import BOARD_LEN, Position
from game.model.rules import signed_byte, steps_from
from native import ffi, lib
from spectrum.hw import MEMORY_BYTES

JOB_PING, JOB_BEST, JOB_RANK, JOB_CUBE, JOB_EVAL = (
    lib.BG_USR_JOB_PING, lib.BG_USR_JOB_BEST, lib.BG_USR_JOB_RANK, lib.BG_USR_JOB_CUBE,
    lib.BG_USR_JOB_EVAL)
REQUEST_LEN = lib.BG_USR_NLEGAL      # bytes of a request: the answer starts beyond them
BLOCK_LEN = lib.BG_USR_BLOCK_LEN


def encode_request(job: int, position: Position | str, dice: Sequence[int] = (0, 0),
                   level: int = 5,
                   terms: MatchTerms = MONEY, want: int = lib.BG_USR_MAX_CANDS) -> bytes:
    """The request block's first REQUEST_LEN bytes, to be POKEd at PARAMS: `terms` the side
    on roll's, for every job (as judged: a match past the table goes as money play)."""
    terms = terms.judged
    position = _position(position)
    block = bytearray(REQUEST_LEN)
    block[lib.BG_USR_JOB] = job & 0xFF
    block[lib.BG_USR_LEVEL] = level & 0xFF
    block[lib.BG_USR_DIE1] = dice[0] & 0xFF
    block[lib.BG_USR_DIE2] = dice[1] & 0xFF
    block[lib.BG_USR_BOARD:lib.BG_USR_BOARD + BOARD_LEN] = bytes(c & 0xFF for c in position.board)
    block[lib.BG_USR_CUBE_LOG2] = cube_log2(terms.cube_value)
    block[lib.BG_USR_CUBE_OWNER] = terms.cube_owner
    block[lib.BG_USR_MATCH_TO] = terms.length
    block[lib.BG_USR_AWAY_ME] = terms.away_me
    block[lib.BG_USR_AWAY_OPP] = terms.away_opp
    block[lib.BG_USR_CRAWFORD] = terms.crawford
    block[lib.BG_USR_WANT] = max(1, min(want, lib.BG_USR_MAX_CANDS))
    return bytes(block)


def cube_log2(cube_value: int) -> int:
    """A cube value as the block carries it: its log2 (1 -> 0, 2 -> 1, 64 -> 6)."""
    return max(cube_value, 1).bit_length() - 1


def usr_call(memory: bytearray, params_addr: int) -> int:
    """What the USR trap runs: the C door over the machine's 64 KiB; returns BC (the status,
    0 = done). Loads the shipped weights first (WeightsError when they are unusable)."""
    ensure_loaded()
    if not 0 <= params_addr <= len(memory) - BLOCK_LEN or len(memory) < MEMORY_BYTES:
        return lib.BG_ERR_USR_ADDR
    return lib.bg_usr(ffi.from_buffer("uint8_t[]", memory), params_addr)


def _u16(mem: bytearray, addr: int) -> int:
    return mem[addr] | mem[addr + 1] << 8


def _equity(mem: bytearray, addr: int) -> float:
    """An equity the door wrote: signed 16 bits, BG_USR_EQUITY_SCALE to the point."""
    value = _u16(mem, addr)
    return (value - 0x10000 if value > 0x7FFF else value) / lib.BG_USR_EQUITY_SCALE


def _chance(mem: bytearray, addr: int) -> float:
    """A probability the door wrote: unsigned 16 bits, BG_USR_PROB_SCALE to the whole."""
    return _u16(mem, addr) / lib.BG_USR_PROB_SCALE


def _cube_answered(mem: bytearray, a: int) -> CubeDecision:
    bits = mem[a + lib.BG_USR_OUT]
    return CubeDecision(bool(bits & lib.BG_CUBE_DOUBLE), bool(bits & lib.BG_CUBE_TAKE),
                        bool(bits & lib.BG_CUBE_TOO_GOOD),
                        *(_equity(mem, a + at) for at in (lib.BG_USR_CUBE_NO_DOUBLE,
                                                          lib.BG_USR_CUBE_DOUBLE_TAKE,
                                                          lib.BG_USR_CUBE_DOUBLE_PASS)),
                        *(_chance(mem, a + at) for at in (lib.BG_USR_CUBE_WIN,
                                                          lib.BG_USR_CUBE_WIN_GAMMON,
                                                          lib.BG_USR_CUBE_LOSE_GAMMON)))


def decode_answer(memory: bytearray, params_addr: int) -> dict:
    """The answer the door wrote, by the job in the block: {"status": 0, ...}; a CUBE job's
    is a CubeDecision ("decision"), as cube_decision's."""
    a = params_addr
    job, status = memory[a + lib.BG_USR_JOB], memory[a + lib.BG_USR_STATUS]
    answer = {"job": job, "status": status}
    if status:
        return answer
    out = a + lib.BG_USR_OUT
    if job == JOB_BEST:
        board = tuple(signed_byte(memory[out + i]) for i in range(BOARD_LEN))
        n = memory[a + lib.BG_USR_BEST_NSTEPS]
        answer.update(after=Position.from_engine(board),
                      steps=steps_from(memory, a + lib.BG_USR_BEST_STEPS, n),
                      equity=_equity(memory, a + lib.BG_USR_BEST_EQUITY),
                      legal_plays=memory[a + lib.BG_USR_NLEGAL])
    elif job == JOB_RANK:
        cands = []
        for i in range(memory[a + lib.BG_USR_COUNT]):
            e = a + lib.BG_USR_CANDS + i * lib.BG_USR_CAND_LEN
            cands.append((steps_from(memory, e + lib.BG_USR_CAND_STEPS, memory[e]),
                          _equity(memory, e + lib.BG_USR_CAND_EQUITY)))
        answer.update(candidates=cands, legal_plays=memory[a + lib.BG_USR_NLEGAL])
    elif job == JOB_CUBE:
        answer.update(decision=_cube_answered(memory, a))
    elif job == JOB_EVAL:
        probs = [_chance(memory, out + 2 * k) for k in range(lib.BG_N_PROBS)]
        answer.update(probabilities=Probabilities(*probs),
                      equity=_equity(memory, a + lib.BG_USR_EVAL_EQUITY))
    elif job == JOB_PING:
        answer.update(weights_loaded=bool(memory[out]))
    return answer
