#!/usr/bin/python3
"""Makes the images under assets/images/ (content and style pictures for --image and AdaIN).

Procedural and deterministic (numpy only, PNG written with zlib): the same bytes on every run,
and no third-party picture, so no third-party licence. Run from anywhere:
    /usr/bin/python3 scripts/make-images.py [OUT_DIR]
"""
import os
import struct
import sys
import zlib

import numpy as np


def write_png(path, pixels):
    """pixels: H×W×3 (RGB) or H×W (gray) uint8; 8-bit, no interlace, filter 0 on every row."""
    h, w = pixels.shape[:2]
    color = 2 if pixels.ndim == 3 else 0
    raw = b"".join(b"\x00" + pixels[y].tobytes() for y in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, color, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


def to_u8(a):
    return np.clip(np.rint(a * 255.0), 0, 255).astype(np.uint8)


def grid(n):
    y, x = np.mgrid[0:n, 0:n].astype(np.float64) / (n - 1)
    return y, x


def content_stripes(n=96):
    """Diagonal grey-blue stripes over a soft vertical gradient: strong structure, dull colours."""
    y, x = grid(n)
    stripes = 0.5 + 0.5 * np.sin(2 * np.pi * 5 * (x + y) / 2)
    base = 0.25 + 0.5 * y
    r = 0.6 * base + 0.3 * stripes
    g = 0.6 * base + 0.32 * stripes
    b = 0.7 * base + 0.3 * stripes
    return to_u8(np.stack([r, g, b], -1))


def content_checker(n=96):
    """A checkerboard with a bright disc in the middle."""
    y, x = grid(n)
    check = ((np.floor(x * 8) + np.floor(y * 8)) % 2) * 0.5 + 0.2
    disc = ((x - 0.5) ** 2 + (y - 0.5) ** 2 < 0.08).astype(np.float64) * 0.3
    v = check + disc
    return to_u8(np.stack([v, 0.9 * v, 0.8 * v], -1))


def style_sunset(n=96):
    """Warm colours: orange to purple with soft waves."""
    y, x = grid(n)
    waves = 0.08 * np.sin(2 * np.pi * (3 * x + 0.5 * np.sin(2 * np.pi * 2 * y)))
    r = 0.95 - 0.35 * y + waves
    g = 0.55 - 0.35 * y + 0.5 * waves
    b = 0.20 + 0.45 * y - waves
    return to_u8(np.stack([r, g, b], -1))


def style_mosaic(n=96):
    """Colourful tiles: each 12×12 tile a colour from a fixed-seed generator, plus fine noise."""
    rng = np.random.default_rng(2024)
    tiles = rng.random((n // 12, n // 12, 3)) ** 0.7
    img = np.kron(tiles, np.ones((12, 12, 1)))
    img = 0.85 * img + 0.15 * rng.random((n, n, 3))
    return to_u8(img)


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "assets", "images")
    os.makedirs(out, exist_ok=True)
    for name, make in [("content-stripes", content_stripes), ("content-checker", content_checker),
                       ("style-sunset", style_sunset), ("style-mosaic", style_mosaic)]:
        write_png(os.path.join(out, name + ".png"), make())


if __name__ == "__main__":
    main()
