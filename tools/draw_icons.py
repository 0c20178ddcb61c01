"""Draw the app's icons: a domino (five over three) on the table's green felt.

Run it (``python tools/draw_icons.py``) to make ``domino.svg``, ``domino-192.png`` and ``domino-512.png``
in ``boneyard/server/static/icons/`` (the PNGs with Pillow); the files are committed, so nothing draws them at
run time. The domino stays inside the middle 80 %, so a launcher may crop the icon to a circle.
"""

from __future__ import annotations

from pathlib import Path

FELT = "#1f5f46"  # app.css --felt, the manifest's theme colour
TILE = "#fffdf5"  # app.css --tile
PIP = "#1d232a"  # app.css --pip
HERE = Path(__file__).resolve().parent.parent / "boneyard" / "server" / "static" / "icons"

# On a 100 x 100 grid: the tile, its dividing line, and the pips of each half.
TILE_BOX = (30.0, 12.0, 70.0, 88.0)
RADIUS = 6.0
LINE = (34.0, 49.2, 66.0, 50.8)
PIP_R = 4.2
TOP = [(39.5, 21.5), (60.5, 21.5), (50.0, 31.0), (39.5, 40.5), (60.5, 40.5)]  # five
BOTTOM = [(39.5, 78.5), (50.0, 69.0), (60.5, 59.5)]  # three


def svg() -> str:
    """The icon as SVG text."""
    x0, y0, x1, y1 = TILE_BOX
    pips = "".join(f'<circle cx="{x}" cy="{y}" r="{PIP_R}" fill="{PIP}"/>' for x, y in TOP + BOTTOM)
    lx0, ly0, lx1, ly1 = LINE
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="512" height="512">'
            f'<rect width="100" height="100" rx="18" fill="{FELT}"/>'
            f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" rx="{RADIUS}" fill="{TILE}" '
            f'stroke="{PIP}" stroke-width="1.2"/>'
            f'<rect x="{lx0}" y="{ly0}" width="{lx1 - lx0}" height="{ly1 - ly0}" fill="{PIP}"/>{pips}</svg>\n')


def png(size: int) -> None:
    """The icon as a square PNG of ``size`` pixels (full-bleed felt: launchers round it themselves)."""
    from PIL import Image, ImageDraw

    big = size * 4  # drawn large and scaled down: smooth edges
    k = big / 100
    image = Image.new("RGB", (big, big), FELT)
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = (v * k for v in TILE_BOX)
    draw.rounded_rectangle((x0, y0, x1, y1), radius=RADIUS * k, fill=TILE, outline=PIP, width=max(1, round(1.2 * k)))
    draw.rectangle(tuple(v * k for v in LINE), fill=PIP)
    for x, y in TOP + BOTTOM:
        draw.ellipse(((x - PIP_R) * k, (y - PIP_R) * k, (x + PIP_R) * k, (y + PIP_R) * k), fill=PIP)
    image.resize((size, size), Image.Resampling.LANCZOS).save(HERE / f"domino-{size}.png", optimize=True)


if __name__ == "__main__":
    (HERE / "domino.svg").write_text(svg(), encoding="utf-8")
    for px in (192, 512):
        png(px)
