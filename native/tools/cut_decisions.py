"""cut_decisions.py: whole decisions out of an sldata data file and its .dec, for training sets
and kept-out sets made from native/tools/data's committed files (each is two or more runs
joined; a set is a run's part, or a share of its decisions). Not a trainer, not a judge.

    python3 native/tools/cut_decisions.py SRC OUT [--records A:B] [--share F:T]
--records A:B keeps records A..B-1 (A and B must fall between decisions: a run's records);
--share F:T then keeps the decisions numbered in [F*n, T*n) of those n. Writes OUT and
OUT.dec; says how many decisions and records it kept. A damaged input is refused."""
from __future__ import annotations

import argparse
import os
import sys

RECORD_BYTES = 70          # board (50 bytes), five float32 targets


def decisions_of(data_len: int, dec: bytes, path: str) -> list[tuple[int, int]]:
    """(first record, record count) of each decision; SystemExit when the two files disagree."""
    if data_len % RECORD_BYTES:
        raise SystemExit(f"cut_decisions: {path} is not whole {RECORD_BYTES}-byte records")
    n_records = data_len // RECORD_BYTES
    spans, at = [], 0
    for count in dec:
        if count == 0:
            raise SystemExit(f"cut_decisions: {path}.dec counts a decision of no records")
        spans.append((at, count))
        at += count
    if at != n_records:
        raise SystemExit(f"cut_decisions: {path}.dec counts {at} records, {path} holds "
                         f"{n_records}")
    return spans


def _pair(text: str, kind: type, name: str) -> tuple:
    try:
        a, b = (kind(x) for x in text.split(":"))
    except ValueError:
        raise SystemExit(f"cut_decisions: {name} is A:B, not {text!r}") from None
    return a, b


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("src")
    ap.add_argument("out")
    ap.add_argument("--records", help="A:B, records A to B-1")
    ap.add_argument("--share", default="0:1", help="F:T, that share of the decisions")
    a = ap.parse_args(argv)
    with open(a.src, "rb") as f:
        data = f.read()
    try:
        with open(a.src + ".dec", "rb") as f:
            dec = f.read()
    except OSError:
        raise SystemExit(f"cut_decisions: {a.src}.dec is needed beside {a.src}") from None
    spans = decisions_of(len(data), dec, a.src)
    if a.records:
        lo, hi = _pair(a.records, int, "--records")
        starts = {s for s, _ in spans} | {len(data) // RECORD_BYTES}
        if lo not in starts or hi not in starts or lo > hi:
            raise SystemExit(f"cut_decisions: --records {a.records} does not fall between "
                             f"decisions of {a.src}")
        spans = [(s, k) for s, k in spans if lo <= s < hi]
    f_lo, f_hi = _pair(a.share, float, "--share")
    if not 0 <= f_lo <= f_hi <= 1:
        raise SystemExit(f"cut_decisions: --share is two fractions 0 <= F <= T <= 1, not "
                         f"{a.share}")
    n = len(spans)
    kept = spans[int(f_lo * n):int(f_hi * n)]
    with open(a.out, "wb") as f:
        for s, k in kept:
            f.write(data[s * RECORD_BYTES:(s + k) * RECORD_BYTES])
    with open(a.out + ".dec", "wb") as f:
        f.write(bytes(k for _, k in kept))
    print(f"{os.path.basename(a.out)}: {len(kept)} decisions, {sum(k for _, k in kept)} records")
    return 0


if __name__ == "__main__":
    sys.exit(main())
