"""The tape playing: a list of blocks turned into the pulse stream that feeds the EAR bit at
T-state resolution (TapePlayer, the machine's tape hook), with the stops a TZX can ask for.
Not the file formats (tape.py, tzx.py) and not the instant-load trap (tape_trap.py)."""
import bisect
from collections.abc import Iterable

import numpy as np

from spectrum import hw
from spectrum.tape_blocks import STOP_IF_48K, Block, pilot_count


def block_pulses(block: Block) -> np.ndarray:
    """The pulse lengths (T-states) a block plays, in order (no pause)."""
    if block.block_id in (0x12, 0x13):
        return np.array(block.pulses_tstates, dtype=np.int64)
    if not block.carries_data:
        return np.zeros(0, dtype=np.int64)
    parts = []
    if block.block_id != 0x14:
        pilots = block.pilot_pulses if block.pilot_pulses >= 0 else pilot_count(block.data)
        parts.append(np.full(pilots, block.pilot_tstates, dtype=np.int64))
        parts.append(np.array([block.sync1_tstates, block.sync2_tstates], dtype=np.int64))
    bits = np.unpackbits(np.frombuffer(block.data, dtype=np.uint8))
    bits = bits[:len(bits) - (8 - block.used_bits)]
    lengths = np.where(bits, block.bit1_tstates, block.bit0_tstates).astype(np.int64)
    parts.append(np.repeat(lengths, 2))
    return np.concatenate(parts)


class TapePlayer:
    """Plays blocks into the EAR bit: ear_at(tstates) / end_frame(frame_tstates) as
    spectrum/machine.py asks. Each pulse starts with an edge; a block that is followed by a
    pause ends with one more edge, then the level holds for the pause. Time counts in
    T-states from the start of the tape; the player runs only while `playing`. A TZX pause
    of 0 ms (block 20h), and block 2Ah on this 48K, mean "stop the tape": the player stops
    itself there, as a person would press stop, and `resume` starts it again (the loaders
    do when LD_BYTES is next entered, as a person presses play for the next file)."""

    def __init__(self, blocks: Iterable[Block], start_level: int = 0) -> None:
        self.blocks = list(blocks)
        self.start_level = start_level
        edges, starts, ends, stops, t = [], [], [], [], 0
        for i, block in enumerate(self.blocks):
            starts.append(t)
            pulses = block_pulses(block)
            if len(pulses):
                times = t + np.concatenate(([0], np.cumsum(pulses)[:-1]))
                edges.append(times)
                t += int(pulses.sum())
                if block.pause_ms > 0 or i == len(self.blocks) - 1:
                    edges.append(np.array([t], dtype=np.int64))   # the last pulse ends
            ends.append(t)
            if block.block_id == STOP_IF_48K or block.block_id == 0x20 and block.pause_ms == 0:
                stops.append(t)                 # "stop the tape" (2Ah: this is a 48K)
            t += block.pause_ms * hw.CPU_HZ // 1000
        self.edge_tstates = (np.concatenate(edges) if edges else np.zeros(0, np.int64)).tolist()
        self.block_start_tstates = starts
        self.block_end_tstates = ends
        self.length_tstates = t
        self.stop_tstates = stops       # tape times of the "stop the tape" blocks
        self.tape_tstates = 0           # tape time at the current frame's T-state 0
        self.playing = False
        self.stopped_by_tape = False    # stopped at a "stop the tape" block, not by a person
        self._index = 0                 # edges before this index have happened
        self._stop_i = 0                # stops before this index have been passed

    # --- the machine's protocol ---
    def _next_stop(self) -> int | None:
        return self.stop_tstates[self._stop_i] if self._stop_i < len(self.stop_tstates) else None

    def ear_at(self, tstates: int) -> int:
        if self.playing:
            now = self.tape_tstates + tstates
            stop = self._next_stop()
            if stop is not None and now > stop:
                now = stop
            edges, i = self.edge_tstates, self._index
            n = len(edges)
            while i < n and edges[i] <= now:
                i += 1
            self._index = i
        return self.start_level ^ (self._index & 1)

    def end_frame(self, frame_tstates: int) -> None:
        if self.playing:
            self.tape_tstates += frame_tstates
            stop = self._next_stop()
            if stop is not None and self.tape_tstates >= stop:
                self.tape_tstates = stop        # the tape stands still at the stop block
                self._stop_i += 1
                self.playing = False
                self.stopped_by_tape = True

    # --- control ---
    def play(self) -> None:
        self.playing = True

    def stop(self) -> None:
        self.playing = False
        self.stopped_by_tape = False

    def resume(self, frame_tstates: int = 0) -> bool:
        """Play on from a "stop the tape" block, the tape moving from the frame's T-state
        `frame_tstates`; False (nothing done) unless the tape stopped itself."""
        if not self.stopped_by_tape:
            return False
        self.tape_tstates -= frame_tstates
        self.stopped_by_tape = False
        self.playing = True
        return True

    @property
    def finished(self) -> bool:
        return self.tape_tstates >= self.length_tstates

    def next_edge_tstates(self, tstates: int) -> int | None:
        """T-states from the frame's T-state `tstates` to the first edge no ear_at call has
        seen yet (0 or less: one is already waiting to be seen; None: no more edges)."""
        if not self.playing or self._index >= len(self.edge_tstates):
            return None
        stop = self._next_stop()
        if stop is not None and self.edge_tstates[self._index] > stop:
            return None                         # the tape will stop before it
        return self.edge_tstates[self._index] - (self.tape_tstates + tstates)

    def seek(self, tape_tstates: int, frame_tstates: int = 0) -> None:
        """Put the tape at tape_tstates as of the frame's T-state frame_tstates."""
        self.tape_tstates = tape_tstates - frame_tstates
        self._index = bisect.bisect_right(self.edge_tstates, tape_tstates)
        self._stop_i = bisect.bisect_right(self.stop_tstates, tape_tstates)
        if self.stopped_by_tape:                # moved on by hand: the stop is over
            self.stopped_by_tape = False
            self.playing = True

    def seek_block(self, index: int, frame_tstates: int = 0) -> None:
        start = self.block_start_tstates[index] if index < len(self.blocks) else self.length_tstates
        self.seek(start, frame_tstates)

    def block_index_at(self, frame_tstates: int = 0) -> int:
        """The first block that has not finished playing at that moment."""
        now = self.tape_tstates + frame_tstates
        return bisect.bisect_right(self.block_end_tstates, now - 1) if self.blocks else 0

    def progress(self) -> float:
        return min(1.0, self.tape_tstates / self.length_tstates) if self.length_tstates else 1.0
