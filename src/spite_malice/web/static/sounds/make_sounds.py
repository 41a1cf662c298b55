"""Make the page's sound effects: six short WAV files synthesised from sine waves and seeded
noise, written next to this script. They are ours (no samples from anywhere else); run
``python src/spite_malice/web/static/sounds/make_sounds.py`` to make them again, the same
bytes each time. The page plays them with <audio> elements (js/sound.js)."""

from __future__ import annotations

import math
import random
import struct
import wave
from collections.abc import Callable
from pathlib import Path

RATE = 22_050
HERE = Path(__file__).parent


def tone(
    freq: float, start: float, length: float, decay: float, level: float
) -> Callable[[float], float]:
    """A sine with two soft overtones, struck at ``start`` and fading exponentially."""

    def sample(t: float) -> float:
        u = t - start
        if u < 0 or u > length:
            return 0.0
        attack = min(1.0, u / 0.004)
        env = attack * math.exp(-u / decay)
        wave_ = (
            math.sin(2 * math.pi * freq * u)
            + 0.35 * math.sin(4 * math.pi * freq * u)
            + 0.12 * math.sin(6 * math.pi * freq * u)
        )
        return level * env * wave_ / 1.47

    return sample


def noise(
    seed: int, start: float, length: float, decay: float, level: float, smooth: float
) -> Callable[[float], float]:
    """Seeded noise, low-passed by ``smooth`` (0..1), struck at ``start``."""
    rng = random.Random(seed)
    count = int(length * RATE) + 2
    raw = [rng.uniform(-1, 1) for _ in range(count)]
    filtered = []
    value = 0.0
    for x in raw:
        value = smooth * value + (1 - smooth) * x
        filtered.append(value)
    peak = max(abs(v) for v in filtered) or 1.0

    def sample(t: float) -> float:
        u = t - start
        if u < 0 or u >= length:
            return 0.0
        env = min(1.0, u / 0.002) * math.exp(-u / decay)
        return level * env * filtered[int(u * RATE)] / peak

    return sample


def write(name: str, seconds: float, parts: list[Callable[[float], float]]) -> None:
    frames = bytearray()
    for i in range(int(seconds * RATE)):
        t = i / RATE
        fade = min(1.0, (seconds - t) / 0.01)
        value = max(-1.0, min(1.0, sum(p(t) for p in parts) * fade))
        frames += struct.pack("<h", int(value * 32_000))
    with wave.open(str(HERE / f"{name}.wav"), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(bytes(frames))


def main() -> None:
    # A card laid on the felt: a short soft knock.
    write("place", 0.09, [noise(1, 0, 0.09, 0.018, 0.55, 0.6), tone(190, 0, 0.09, 0.02, 0.45)])
    # A card slid off the stock: a brushing swish.
    write("draw", 0.16, [noise(2, 0, 0.16, 0.05, 0.35, 0.35)])
    # A riffle: a run of quick card flicks.
    flicks = [noise(10 + k, 0.035 * k, 0.05, 0.012, 0.4, 0.45) for k in range(12)]
    write("shuffle", 0.48, flicks)
    # Your turn: a two-note chime, rising.
    write("turn", 0.42, [tone(659.3, 0, 0.42, 0.12, 0.45), tone(880.0, 0.11, 0.31, 0.14, 0.45)])
    # A win: a rising major arpeggio.
    notes = [523.3, 659.3, 784.0, 1046.5]
    write("win", 0.8, [tone(f, 0.11 * k, 0.8 - 0.11 * k, 0.18, 0.38) for k, f in enumerate(notes)])
    # A loss: a falling minor line.
    notes = [392.0, 311.1, 261.6]
    write(
        "lose", 0.75, [tone(f, 0.16 * k, 0.75 - 0.16 * k, 0.2, 0.38) for k, f in enumerate(notes)]
    )


if __name__ == "__main__":
    main()
