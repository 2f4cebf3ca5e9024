"""Write the game's sound effects to assets/sounds/*.wav, synthesised from scratch.

Run ``python assets/rebuild/sounds.py`` to rebuild them: no recordings, no samples, nothing
to credit.  The noise is seeded, so the files come out the same every time.  Each effect
is a short 16-bit mono WAV at 22,050 Hz, faded in and out (no clicks at either end) and
scaled to its own peak level: the click is quiet, the win is the loudest.
"""

from __future__ import annotations

import array
import math
import random
import sys
import wave
from collections.abc import Callable
from pathlib import Path

RATE = 22_050
SOUND_DIR = Path(__file__).resolve().parents[1] / "sounds"
Samples = list[float]
TAU = 2 * math.pi


def silence(seconds: float) -> Samples:
    return [0.0] * int(seconds * RATE)


def mix(*layers: tuple[float, Samples]) -> Samples:
    """Add sample lists, each starting at its own time (seconds)."""
    end = max(int(start * RATE) + len(s) for start, s in layers)
    out = [0.0] * end
    for start, samples in layers:
        offset = int(start * RATE)
        for i, v in enumerate(samples):
            out[offset + i] += v
    return out


def tone(
    freq: float,
    seconds: float,
    decay: float,
    partials: tuple[tuple[float, float], ...] = ((1.0, 1.0),),
    glide: float = 1.0,
    attack: float = 0.003,
) -> Samples:
    """A decaying tone: partials as (frequency ratio, amplitude), an exponential decay
    with time constant `decay` seconds, and a pitch glide to `glide` x freq by the end."""
    n = int(seconds * RATE)
    release = max(1, min(int(0.02 * RATE), n // 4))  # no click where the tone stops
    out = []
    phases = [0.0] * len(partials)
    for i in range(n):
        t = i / RATE
        f = freq * glide ** (t / seconds)
        env = math.exp(-t / decay) * min(1.0, t / attack, (n - 1 - i) / release)
        v = 0.0
        for k, (ratio, amp) in enumerate(partials):
            phases[k] += TAU * f * ratio / RATE
            v += amp * math.sin(phases[k])
        out.append(v * env)
    return out


def noise(seconds: float, rng: random.Random) -> Samples:
    return [rng.uniform(-1.0, 1.0) for _ in range(int(seconds * RATE))]


def lowpass(samples: Samples, cutoff: float) -> Samples:
    a = 1 - math.exp(-TAU * cutoff / RATE)
    out, y = [], 0.0
    for v in samples:
        y += a * (v - y)
        out.append(y)
    return out


def highpass(samples: Samples, cutoff: float) -> Samples:
    low = lowpass(samples, cutoff)
    return [v - lv for v, lv in zip(samples, low, strict=True)]


def bandpass(samples: Samples, low: float, high: float, order: int = 2) -> Samples:
    """`order` one-pole high-pass and low-pass stages (6 dB per octave each): noise
    through two stages sounds like a brush, through one like hiss."""
    for _ in range(order):
        samples = lowpass(highpass(samples, low), high)
    return samples


def envelope(samples: Samples, shape: Callable[[float], float]) -> Samples:
    """Multiply by shape(t / duration)."""
    n = max(1, len(samples))
    return [v * shape(i / n) for i, v in enumerate(samples)]


def finish(samples: Samples, peak: float) -> Samples:
    """Scale to `peak` (0-1 of full scale) and fade the ends (2 ms in, 10 ms out)."""
    top = max(abs(v) for v in samples) or 1.0
    fade_in, fade_out = int(0.002 * RATE), int(0.010 * RATE)
    n = len(samples)
    out = []
    for i, v in enumerate(samples):
        gain = min(1.0, i / fade_in, (n - 1 - i) / fade_out)
        out.append(v / top * peak * gain)
    return out


# --- the effects -------------------------------------------------------------------------


def click(rng: random.Random) -> Samples:
    """A soft, short tick for buttons."""
    body = tone(1400, 0.045, 0.008, ((1.0, 1.0), (2.3, 0.25)))
    tap = envelope(bandpass(noise(0.01, rng), 1500, 5000), lambda x: 1 - x)
    return finish(mix((0, body), (0, [0.3 * v for v in tap])), 0.32)


def disc_drop(rng: random.Random) -> Samples:
    """A disc sliding down a column: a short, falling airy swish."""
    airy = highpass(noise(0.22, rng), 300)
    # A low-pass whose cutoff falls from 2.4 kHz to 600 Hz: the swish drops with the disc.
    swish, y1, y2 = [], 0.0, 0.0
    for i, v in enumerate(airy):
        cutoff = 2400 * (600 / 2400) ** (i / len(airy))
        a = 1 - math.exp(-TAU * cutoff / RATE)
        y1 += a * (v - y1)
        y2 += a * (y1 - y2)
        swish.append(y2)
    swish = envelope(swish, lambda x: math.sin(math.pi * min(1.0, x * 1.3)) ** 2)
    rattle = tone(520, 0.22, 0.2, ((1.0, 0.15),), glide=0.75)
    return finish(mix((0, swish), (0, rattle)), 0.35)


def disc_land(rng: random.Random) -> Samples:
    """A plastic disc landing on the one below: a hollow clack."""
    body = tone(320, 0.16, 0.035, ((1.0, 1.0), (2.76, 0.5), (5.4, 0.25)))
    knock = envelope(bandpass(noise(0.02, rng), 600, 3500), lambda x: (1 - x) ** 3)
    return finish(mix((0, body), (0, [0.8 * v for v in knock])), 0.7)


def mark_x(rng: random.Random) -> Samples:
    """A pen drawing an X: two quick scratches."""

    def stroke() -> Samples:
        s = bandpass(noise(0.07, rng), 1200, 3200)
        return envelope(s, lambda x: math.sin(math.pi * x) ** 1.5)

    return finish(mix((0, stroke()), (0.09, stroke())), 0.42)


def mark_o(rng: random.Random) -> Samples:
    """A pen drawing an O: one round, slightly swelling stroke."""
    s = bandpass(noise(0.18, rng), 900, 2800)
    return finish(
        envelope(s, lambda x: math.sin(math.pi * x) * (0.75 + 0.25 * math.sin(TAU * x))), 0.4
    )


def die_tick(rng: random.Random, strength: float) -> Samples:
    pitch = rng.uniform(1800, 2600)
    wood = tone(pitch, 0.03, 0.006, ((1.0, 1.0), (1.7, 0.4)))
    return [strength * v for v in wood]


def die_tumble(rng: random.Random) -> Samples:
    """A die tumbling over the table: a run of wooden ticks, slowing and fading."""
    layers: list[tuple[float, Samples]] = []
    t = 0.0
    for k in range(9):
        layers.append((t, die_tick(rng, 1.0 - 0.07 * k)))
        t += 0.035 + 0.012 * k + rng.uniform(0, 0.015)
    layers.append((t, silence(0.03)))
    return finish(mix(*layers), 0.45)


def die_land(rng: random.Random) -> Samples:
    """The die coming to rest: one firm knock and a last small tick."""
    thud = tone(240, 0.18, 0.03, ((1.0, 1.0), (2.2, 0.35)))
    return finish(mix((0, thud), (0, die_tick(rng, 0.8)), (0.07, die_tick(rng, 0.25))), 0.6)


def soft_note(freq: float, seconds: float, decay: float, glide: float = 1.0) -> Samples:
    """A mellow tone: a few harmonics, quickly falling off."""
    return tone(freq, seconds, decay, ((1.0, 1.0), (2.0, 0.3), (3.0, 0.12)), glide, attack=0.01)


def bell(freq: float, seconds: float, decay: float) -> Samples:
    """A bright bell: a few inharmonic partials."""
    return tone(freq, seconds, decay, ((1.0, 1.0), (2.0, 0.4), (2.76, 0.25), (5.4, 0.08)))


def wipeout(rng: random.Random) -> Samples:
    """Rolling a 1: a sagging 'wah-wahh', two falling notes."""
    first = soft_note(330, 0.22, 0.16, glide=0.94)
    second = soft_note(262, 0.5, 0.3, glide=0.8)
    return finish(lowpass(mix((0, first), (0.2, second)), 2500), 0.55)


def bank(rng: random.Random) -> Samples:
    """Banking the turn total: a coin-like two-note 'ching'."""
    return finish(mix((0, bell(1318.5, 0.35, 0.12)), (0.07, bell(1975.5, 0.45, 0.16))), 0.5)


def win(rng: random.Random) -> Samples:
    """A win: a rising major arpeggio ending on a held octave (C E G C)."""
    notes = (523.25, 659.25, 783.99)
    layers = [(0.11 * i, bell(f, 0.5, 0.18)) for i, f in enumerate(notes)]
    layers.append((0.33, bell(1046.5, 0.9, 0.35)))
    layers.append((0.33, soft_note(523.25, 0.9, 0.35)))
    return finish(mix(*layers), 0.75)


def loss(rng: random.Random) -> Samples:
    """A loss: a slow falling minor line (G E-flat C), soft and low."""
    notes = ((392.0, 0.0), (311.13, 0.2), (261.63, 0.4))
    layers = [(start, soft_note(f, 0.6 if start < 0.4 else 0.8, 0.3)) for f, start in notes]
    return finish(lowpass(mix(*layers), 2000), 0.55)


def draw(rng: random.Random) -> Samples:
    """A draw: two even notes a fourth apart, neither rising nor falling far."""
    return finish(
        mix((0, soft_note(392.0, 0.45, 0.22)), (0.18, soft_note(523.25, 0.55, 0.25))), 0.5
    )


EFFECTS: dict[str, Callable[[random.Random], Samples]] = {
    "click": click,
    "disc_drop": disc_drop,
    "disc_land": disc_land,
    "mark_x": mark_x,
    "mark_o": mark_o,
    "die_tumble": die_tumble,
    "die_land": die_land,
    "wipeout": wipeout,
    "bank": bank,
    "win": win,
    "loss": loss,
    "draw": draw,
}


def write_wav(path: Path, samples: Samples) -> None:
    data = array.array("h", (max(-32767, min(32767, round(v * 32767))) for v in samples))
    if sys.byteorder == "big":
        data.byteswap()
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(data.tobytes())


def main() -> int:
    SOUND_DIR.mkdir(exist_ok=True)
    for index, (name, make) in enumerate(EFFECTS.items()):
        samples = make(random.Random(1000 + index))
        path = SOUND_DIR / f"{name}.wav"
        write_wav(path, samples)
        print(f"{path.name:16} {len(samples) / RATE:5.2f} s  {path.stat().st_size:7,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
