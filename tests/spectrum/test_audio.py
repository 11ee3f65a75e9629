"""The beeper: a known OUT pattern becomes the expected square wave; the sample clock keeps
its phase across frames; silence is cheap; the mixer path is silent under SDL's dummy driver."""
import wave

import numpy as np

from spectrum import hw
from spectrum.audio import Beeper, BeeperRenderer, render_wav
from spectrum.ula import Ula


def square_wave_frames(half_period_tstates, frames):
    """Split a global square wave (EAR toggling every half period) into frame logs via the ULA."""
    u = Ula()
    logs = []
    t, level = half_period_tstates, 0
    for f in range(frames):
        end = (f + 1) * hw.TSTATES_PER_FRAME
        while t < end:
            level ^= 1
            u.port_out(0xFE, level << 4, t - f * hw.TSTATES_PER_FRAME)
            t += half_period_tstates
        u.end_frame()
        logs.append(u.frame_ear)
    return logs


def test_out_pattern_gives_the_expected_square_wave(tmp_path):
    """EAR toggled every 1750 T (1 kHz) for 50 frames: 1000 cycles a second, high and low
    halves of 22.05 samples each, full amplitude either side."""
    frames = square_wave_frames(1750, 50)
    path = tmp_path / "beep.wav"
    samples = render_wav(path, frames).astype(int)
    expected_len = 50 * hw.TSTATES_PER_FRAME * hw.AUDIO_RATE_HZ / hw.CPU_HZ
    assert abs(len(samples) - expected_len) <= 1
    high, low = samples.max(), samples.min()
    assert high == -low > 8000
    rising = np.flatnonzero((samples[:-1] < 0) & (samples[1:] >= 0))
    freq_hz = (len(rising) - 1) / ((rising[-1] - rising[0]) / hw.AUDIO_RATE_HZ)
    assert abs(freq_hz - 1000) < 1
    assert np.mean(samples > 0) == np.mean(samples < 0) or abs(np.mean(samples > 0) - 0.5) < 0.02
    # the ideal wave, sample by sample, within the one sample at each edge that is averaged
    t_centres = (np.arange(len(samples)) + 0.5) * hw.CPU_HZ / hw.AUDIO_RATE_HZ
    ideal = np.where((t_centres // 1750) % 2 == 1, high, low)
    assert np.mean(samples == ideal) > 0.9
    with wave.open(str(path)) as w:
        assert (w.getframerate(), w.getnchannels(), w.getsampwidth()) == (44100, 1, 2)
        assert w.getnframes() == len(samples)


def test_an_edge_between_samples_is_averaged_not_lost():
    r = BeeperRenderer(dc_cutoff_hz=0)
    period = hw.CPU_HZ / hw.AUDIO_RATE_HZ
    # a pulse of half a sample, inside sample 10
    start = 10 * period + period / 4
    samples = r.render_frame(0, [(start, 1), (start + period / 2, 0)])
    assert samples[9] == samples[11] == samples[0]
    assert abs(samples[10]) < 100                     # halfway between low and high


def test_sample_count_per_frame_keeps_the_phase_across_frames():
    r = BeeperRenderer()
    counts = [len(r.render_frame(0, [])) for _ in range(100)]
    assert set(counts) <= {880, 881}
    assert sum(counts) == int(100 * hw.TSTATES_PER_FRAME * hw.AUDIO_RATE_HZ / hw.CPU_HZ)


def test_held_level_decays_to_silence_and_idle_frames_are_zero():
    r = BeeperRenderer()
    r.render_frame(0, [(100, 1)])
    tails = [np.abs(r.render_frame(1, [])).max() for _ in range(30)]
    assert tails[-1] == 0 and tails[0] > 1000


def test_beeper_is_silent_not_broken_under_the_dummy_driver():
    beeper = Beeper(record=True)
    for frame in square_wave_frames(1750, 10):
        beeper.push(frame)
    beeper.set_muted(True)
    beeper.push((0, [(10, 1)]))
    assert len(np.concatenate(beeper.recording)) > 8000


def test_beeper_without_audio_still_renders():
    beeper = Beeper(enabled=False, record=True)
    assert not beeper.available
    beeper.push((0, [(1000, 1)]))
    assert beeper.recording[0].any()


class FakeChannel:
    def __init__(self):
        self.playing, self.queued, self.calls = None, None, []

    def get_busy(self):
        return self.playing is not None

    def get_queue(self):
        return self.queued

    def play(self, sound):
        self.playing = sound
        self.calls.append(("play", sound))

    def queue(self, sound):
        self.queued = sound
        self.calls.append(("queue", sound))


class FakeMixer:
    class mixer:
        Sound = staticmethod(lambda buffer: len(buffer) // 2)    # a "sound" is its sample count


def fake_beeper():
    beeper = Beeper(enabled=False)
    beeper.available, beeper._channel, beeper._pygame = True, FakeChannel(), FakeMixer
    return beeper


def test_sound_starts_after_two_frames_of_prebuffer_then_refills_the_queue():
    beeper = fake_beeper()
    tone = square_wave_frames(1750, 4)
    beeper.push(tone[0])
    assert beeper._channel.calls == []                       # waiting for the prebuffer
    beeper.push(tone[1])
    assert [c for c, _n in beeper._channel.calls] == ["play"]
    assert beeper._channel.calls[0][1] in (1761, 1762)        # two frames of samples
    beeper.push(tone[2])
    assert [c for c, _n in beeper._channel.calls] == ["play", "queue"]


def test_idle_beeper_queues_nothing():
    beeper = fake_beeper()
    for _ in range(10):
        beeper.push((0, []))
    assert beeper._channel.calls == []


def test_tape_signal_is_mixed_under_the_beeper():
    from spectrum.audio import TAPE_WEIGHT, mix_speaker
    assert mix_speaker((1, [(10, 0)]), (0, [])) == (1, [(10, 0)])      # no tape: untouched
    start, changes = mix_speaker((0, [(300, 1)]), (1, [(100, 0), (500, 1)]))
    keep = 1 - TAPE_WEIGHT
    assert start == TAPE_WEIGHT
    assert changes == [(100, 0.0), (300, keep), (500, keep + TAPE_WEIGHT)]
