"""The speaker: each frame's timestamped EAR (OUT bit 4) edges, with a loading tape's signal
mixed in, -> 44.1 kHz samples -> pygame.mixer; plus a WAV writer to look at the waveform.
Not the ULA (which logs the edges). Silent, never broken, where there is no audio device."""
import contextlib
import math
import os
import sys
import time
import wave
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from spectrum import hw

# one frame of a level: (level at T-state 0, [(T-state, new level), ...] in order)
Changes = Sequence[tuple[float, float]]
Levels = tuple[float, Changes]

DC_CUTOFF_HZ = 20.0            # the speaker is AC-coupled: a held level decays to silence
PREBUFFER_FRAMES = 2           # queued before playback starts (about 40 ms)
SETTLED_LEVEL = 1e-4           # the DC blocker this close to the held level: silence
MAX_BACKLOG_FRAMES = 250       # 5 s: a long BEEP arrives at once; beyond this old audio is dropped


class BeeperRenderer:
    """Edges -> samples, with no pygame: each output sample is the average EAR level over
    its own span of T-states (a box filter, so edges between samples are not lost), then a
    one-pole DC blocker, scaled to int16. Keeps its phase across frames (880.6 samples each)."""

    def __init__(self, sample_rate_hz: int = hw.AUDIO_RATE_HZ, amplitude: float = 0.5,
                 dc_cutoff_hz: float = DC_CUTOFF_HZ):
        self.sample_rate_hz = sample_rate_hz
        self.tstates_per_sample = hw.CPU_HZ / sample_rate_hz     # 79.37 T
        self.amplitude = amplitude
        self.pole = math.exp(-2 * math.pi * dc_cutoff_hz / sample_rate_hz) if dc_cutoff_hz else 1.0
        self.reset()

    def reset(self) -> None:
        self.pending_start_tstates = 0.0   # where the unfinished sample began (<= 0: last frame)
        self.pending_area = 0.0            # its level x T-states so far
        self.lowpass = 0.0                 # DC blocker state (the slowly moving average level)

    def render_frame(self, start_level: float, changes: Changes,
                     frame_tstates: int = hw.TSTATES_PER_FRAME) -> np.ndarray:
        """int16 samples for one frame; `changes` = [(tstates, level 0/1), ...] sorted."""
        period = self.tstates_per_sample
        first = self.pending_start_tstates + period
        count = int((frame_tstates - first) // period) + 1 if first <= frame_tstates else 0
        if not changes and self._settled(start_level):
            return self._silent_frame(start_level, first, count, frame_tstates)
        bounds = first + period * np.arange(count)               # sample ends inside this frame
        if changes:
            times = np.empty(len(changes) + 1)
            levels = np.empty(len(changes) + 1)
            times[0], levels[0] = 0.0, start_level
            times[1:] = [t for t, _v in changes]
            levels[1:] = [v for _t, v in changes]
            np.clip(times, 0, frame_tstates, out=times)
            area_at_times = np.zeros(len(times))
            area_at_times[1:] = np.cumsum(levels[:-1] * np.diff(times))
            def area(t: np.ndarray) -> np.ndarray:
                i = np.searchsorted(times, t, side="right") - 1
                return area_at_times[i] + levels[i] * (t - times[i])
            area_bounds = area(bounds)
            area_end = float(area(np.array([float(frame_tstates)]))[0])
            end_level = levels[-1]
        else:
            area_bounds = start_level * bounds
            area_end = float(start_level * frame_tstates)
            end_level = start_level
        if count:
            x = np.diff(area_bounds, prepend=0.0)
            x[0] += self.pending_area
            x /= period
            last_bound = bounds[-1]
            self.pending_area = area_end - area_bounds[-1]
        else:
            x = np.zeros(0)
            last_bound = self.pending_start_tstates
            self.pending_area += area_end
        self.pending_start_tstates = last_bound - frame_tstates
        samples = self._dc_block(x, end_level, changes)
        return samples

    def _settled(self, level: float) -> bool:
        """The DC blocker has come to rest at this held level: the speaker is silent."""
        return self.pole < 1.0 and abs(self.lowpass - level) < SETTLED_LEVEL

    def _silent_frame(self, level: float, first: float, count: int,
                      frame_tstates: int) -> np.ndarray:
        """A frame with no edge once the speaker has settled: `count` zero samples, the
        phase carried on in plain arithmetic (what render_frame's arrays would give)."""
        if count:
            last_bound = first + self.tstates_per_sample * (count - 1)
            self.pending_area = level * (frame_tstates - last_bound)
        else:
            last_bound = self.pending_start_tstates
            self.pending_area += level * frame_tstates
        self.pending_start_tstates = last_bound - frame_tstates
        self.lowpass = float(level)
        return np.zeros(count, np.int16)

    def _dc_block(self, x: np.ndarray, end_level: float, changes: Changes) -> np.ndarray:
        n = len(x)
        a = self.pole
        if not changes and self._settled(end_level):
            self.lowpass = float(end_level)
            return np.zeros(n, np.int16)                      # settled: silence, cheaply
        if a >= 1.0:
            y = x - 0.5
        else:
            # s[k] = a*s[k-1] + (1-a)*x[k], in closed form:
            #      a^(k+1) * (s0 + (1-a) * sum x[j] a^-(j+1))
            k = np.arange(n)
            grow = a ** -(k + 1.0)
            s = a ** (k + 1.0) * (self.lowpass + (1 - a) * np.cumsum(x * grow))
            if n:
                self.lowpass = float(s[-1])
            y = x - s
        return np.clip(np.rint(y * (self.amplitude * 32767)), -32768, 32767).astype(np.int16)


TAPE_WEIGHT = 0.3             # how loud the tape's signal is next to the beeper


def mix_speaker(frame_ear: Levels, frame_tape: Levels,
                tape_weight: float = TAPE_WEIGHT) -> Levels:
    """One frame's speaker level from the beeper (OUT bit 4) and the tape's EAR input, which
    on the 48K share the ULA's EAR pin, so a loading tape is heard. Both are
    (start_level, [(tstates, 0/1), ...]); so is the result, with levels in 0..1."""
    (ear, ear_changes), (tape, tape_changes) = frame_ear, frame_tape
    if not tape_changes:
        return frame_ear
    keep = 1.0 - tape_weight
    start = keep * ear + tape_weight * tape
    events = sorted([(t, 0, v) for t, v in ear_changes] + [(t, 1, v) for t, v in tape_changes])
    changes: list[tuple[float, float]] = []
    for t, source, value in events:
        if source:
            tape = value
        else:
            ear = value
        changes.append((t, keep * ear + tape_weight * tape))
    return start, changes


def write_wav(path: str | os.PathLike[str], samples: np.ndarray,
              sample_rate_hz: int = hw.AUDIO_RATE_HZ) -> None:
    """Mono 16-bit WAV."""
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(sample_rate_hz)
        out.writeframes(np.asarray(samples, dtype="<i2").tobytes())


def render_wav(path: str | os.PathLike[str], frames: Iterable[Levels],
               sample_rate_hz: int = hw.AUDIO_RATE_HZ,
               dc_cutoff_hz: float = 0.0) -> np.ndarray:
    """Write the beeper of several frames -- an iterable of (start_level, changes) -- to a WAV;
    by default without the DC blocker, so the file shows the square wave as the ULA drove it."""
    renderer = BeeperRenderer(sample_rate_hz, dc_cutoff_hz=dc_cutoff_hz)
    samples = np.concatenate([renderer.render_frame(s, c) for s, c in frames]
                             or [np.zeros(0, np.int16)])
    write_wav(path, samples, sample_rate_hz)
    return samples


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Silence C libraries writing to file descriptor 2 for the duration."""
    try:
        sys.stderr.flush()
        saved_fd = os.dup(2)
    except (OSError, ValueError):
        yield
        return
    try:
        with open(os.devnull, "wb") as devnull:
            os.dup2(devnull.fileno(), 2)
            yield
    finally:
        os.dup2(saved_fd, 2)
        os.close(saved_fd)


class Beeper:
    """Feeds pygame.mixer one frame at a time: `beeper.push(machine.ula.frame_ear)`.
    `muted` may be set at any time; with no usable audio device it stays silent.
    `record=True` keeps every sample so `save_wav(path)` can write them out."""

    def __init__(self, enabled: bool = True, muted: bool = False, record: bool = False):
        self.muted = muted
        self.available = False
        self.reason = "audio disabled"
        self.channels = 1
        sample_rate_hz = hw.AUDIO_RATE_HZ
        self._channel: Any = None       # pygame's mixer Channel once started (pygame: untyped)
        self._pending: list[np.ndarray] = []
        self._pending_samples = 0
        self._play_until_s = 0.0
        self.renderer = BeeperRenderer(sample_rate_hz)
        self.samples_per_frame = sample_rate_hz / hw.FRAME_HZ
        self.recording: list[np.ndarray] | None = [] if record else None
        if enabled:
            self.open()

    def open(self) -> bool:
        """Open pygame.mixer (if not yet); True when sound can be heard. Safe to call again."""
        if self.available:
            return True
        try:
            os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
            import pygame
            if not pygame.mixer.get_init():
                with _quiet_stderr():           # ALSA and friends print to fd 2 when no card exists
                    pygame.mixer.init(frequency=hw.AUDIO_RATE_HZ, size=-16, channels=1, buffer=1024)
            started = pygame.mixer.get_init()
            if started is None:
                raise RuntimeError("the mixer did not start")
            sample_rate_hz, _fmt, self.channels = started
        except Exception as exc:            # no device, no SDL audio: stay silent
            self.reason = f"no audio ({exc})"
            self.available = False
            return False
        self._channel = pygame.mixer.Channel(0)
        self._pygame = pygame
        self.available = True
        self.reason = ""
        if sample_rate_hz != self.renderer.sample_rate_hz:
            self.renderer = BeeperRenderer(sample_rate_hz)
            self.samples_per_frame = sample_rate_hz / hw.FRAME_HZ
        return True

    def push(self, frame_ear: Levels, play: bool = True) -> np.ndarray:
        """Render one finished frame's (start_level, changes) and queue it for playing
        (play=False: render and record only, e.g. while running faster than real time)."""
        start_level, changes = frame_ear
        samples = self.renderer.render_frame(start_level, changes)
        if self.recording is not None:
            self.recording.append(samples)
        if self.available and not self.muted and play:
            self._queue(samples, silent=not changes and not samples.any())
        elif self._pending:
            self._pending, self._pending_samples = [], 0
        return samples

    def _queue(self, samples: np.ndarray, silent: bool) -> None:
        if silent and not self._pending and time.perf_counter() > self._play_until_s:
            return          # all that was handed to SDL has played: silence asks nothing of it
        channel = self._channel
        busy = channel.get_busy()
        ahead_s = self._play_until_s - time.perf_counter()     # handed to SDL, not yet heard
        if silent and not busy and not self._pending:
            return                                  # stopped and nothing to say: stay stopped
        if silent and ahead_s > (PREBUFFER_FRAMES + 1) / hw.FRAME_HZ:
            return      # behind (a BEEP computed inside one call arrives at once): skip silence
        self._pending.append(samples)
        self._pending_samples += len(samples)
        if self._pending_samples > MAX_BACKLOG_FRAMES * self.samples_per_frame:
            keep = self._pending[-PREBUFFER_FRAMES:]
            self._pending, self._pending_samples = keep, sum(len(s) for s in keep)
        if not busy:
            if self._pending_samples >= int(PREBUFFER_FRAMES * self.samples_per_frame):
                channel.play(self._take())
        elif channel.get_queue() is None:
            channel.queue(self._take())

    def _take(self) -> Any:
        block = np.concatenate(self._pending)
        self._pending, self._pending_samples = [], 0
        now_s = time.perf_counter()
        block_s = len(block) / self.renderer.sample_rate_hz
        self._play_until_s = max(now_s, self._play_until_s) + block_s
        if self.channels > 1:
            block = np.repeat(block[:, None], self.channels, axis=1)
        return self._pygame.mixer.Sound(buffer=np.ascontiguousarray(block).tobytes())

    def set_muted(self, muted: bool) -> None:
        self.muted = muted
        if muted and self._channel is not None:
            self._channel.stop()
            self._pending, self._pending_samples = [], 0

    def save_wav(self, path: str | os.PathLike[str]) -> None:
        samples = np.concatenate(self.recording) if self.recording else np.zeros(0, np.int16)
        write_wav(path, samples, self.renderer.sample_rate_hz)
