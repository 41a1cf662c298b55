"""Draws the app's icons (192 and 512 px, and a maskable 512 px one with the art inside the
safe circle), the favicon's two cards on the felt green: ``python make_icons.py``."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

FELT = (20, 83, 45)
PAPER = (255, 253, 247)
RED = (198, 40, 40)
HERE = Path(__file__).parent


def draw(size: int, *, maskable: bool) -> Image.Image:
    scale = 4  # drawn large, then reduced: smooth edges
    big = size * scale
    image = Image.new("RGBA", (big, big), (*FELT, 255) if maskable else (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    if not maskable:
        pen.rounded_rectangle((0, 0, big - 1, big - 1), radius=big // 5, fill=FELT)
    art = 0.62 if maskable else 0.8  # maskable: inside the safe circle (80% of the width)
    card_w, card_h = big * art * 0.5, big * art * 0.72
    for angle, dx, colour in ((-10, -0.12, PAPER), (9, 0.1, PAPER)):
        card = Image.new("RGBA", (int(card_w), int(card_h)), (0, 0, 0, 0))
        ImageDraw.Draw(card).rounded_rectangle(
            (0, 0, card_w - 1, card_h - 1),
            radius=card_w // 7,
            fill=colour,
            outline=FELT,
            width=max(2, big // 120),
        )
        card = card.rotate(-angle, expand=True, resample=Image.Resampling.BICUBIC)
        x = int(big / 2 + dx * big * art - card.width / 2)
        y = int(big / 2 - card.height / 2)
        image.alpha_composite(card, (x, y))
    r = big * art * 0.11  # a heart on the front card
    cx, cy = big / 2 + 0.1 * big * art, big / 2 + 0.02 * big
    pen = ImageDraw.Draw(image)
    pen.ellipse((cx - 2 * r, cy - r, cx, cy + r), fill=RED)
    pen.ellipse((cx, cy - r, cx + 2 * r, cy + r), fill=RED)
    pen.polygon(
        [(cx - 1.93 * r, cy + 0.35 * r), (cx + 1.93 * r, cy + 0.35 * r), (cx, cy + 2.3 * r)],
        fill=RED,
    )
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    draw(192, maskable=False).save(HERE / "icon-192.png", optimize=True)
    draw(512, maskable=False).save(HERE / "icon-512.png", optimize=True)
    draw(512, maskable=True).save(HERE / "icon-maskable-512.png", optimize=True)


if __name__ == "__main__":
    main()
