#!/usr/bin/python3
"""Golden data for images as tensors and AdaIN (normlab-cli --image / --style-image).

Run with Debian's python (torch 1.13 + numpy):

    /usr/bin/python3 tests/golden/make_golden_images.py

Writes tests/golden/images/:
- small PNG test images (gray, gray+alpha, RGB, RGBA, a 16-bit one), written here with rows
  using all five PNG filters, and for each PNG the tensor it must give, decoded by the
  independent zlib-based reader below (not stb_image): <name>.x.npy, float32 1×C×H×W of value/255;
- AdaIN cases (adain-*/): x.npy and style.npy (the decoded content and style images),
  y.npy (float64, torch: F.instance_norm(x) * σ_s + μ_s, with μ_s and σ_s = √(var_s + ε) of the
  style, biased variance, all in float64 from the float32 inputs) and expected.json (the
  content's mean/var and the style's mean/std per channel).
Deterministic: the same bytes on every run.
"""
import json
import os
import struct
import sys
import zlib

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
OUT = os.path.join(HERE, "images")
EPS = 1e-5
torch.set_num_threads(1)


# ----- an independent PNG reader (8-bit, non-interlaced; every filter) ----------------------
def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def read_png(path):
    """Returns an H×W×channels uint8 array (channels as stored: 1, 2, 3 or 4)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    w, h, depth, color, _, _, interlace = hdr
    assert depth == 8 and interlace == 0, "the reader handles 8-bit non-interlaced PNGs"
    ch = {0: 1, 2: 3, 4: 2, 6: 4}[color]
    raw = zlib.decompress(idat)
    stride = w * ch
    out = np.zeros((h, stride), dtype=np.int64)
    prev = [0] * stride
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)]
        cur = [0] * stride
        for i in range(stride):
            a = cur[i - ch] if i >= ch else 0
            b = prev[i]
            c = prev[i - ch] if i >= ch else 0
            pred = [0, a, b, (a + b) // 2, paeth(a, b, c)][f]
            cur[i] = (line[i] + pred) & 0xFF
        out[y] = cur
        prev = cur
    return out.reshape(h, w, ch).astype(np.uint8)


def image_tensor(pixels):
    """normlab's rule: gray(+alpha) -> 1 channel, RGB(A) -> 3; alpha dropped; value/255, NCHW."""
    keep = 1 if pixels.shape[2] <= 2 else 3
    x = pixels[:, :, :keep].astype(np.float32) / np.float32(255.0)
    return np.ascontiguousarray(x.transpose(2, 0, 1)[None], dtype="<f4")


# ----- a PNG writer using all five filters (row y uses filter y % 5) -------------------------
def write_png(path, pixels, depth=8):
    h, w, ch = pixels.shape
    color = {1: 0, 2: 4, 3: 2, 4: 6}[ch]
    bpp = ch * depth // 8
    rows = []
    prev = [0] * (w * bpp)
    for y in range(h):
        if depth == 16:
            line = list(pixels[y].astype(">u2").tobytes())
        else:
            line = list(pixels[y].astype(np.uint8).tobytes())
        f = y % 5
        enc = []
        for i, v in enumerate(line):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            pred = [0, a, b, (a + b) // 2, paeth(a, b, c)][f]
            enc.append((v - pred) & 0xFF)
        rows.append(bytes([f] + enc))
        prev = line

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, color, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as fh:
        fh.write(png)


def save_npy(path, a):
    np.save(path, a)


def adain_torch(x, s):
    """float64 AdaIN from float32 inputs, with torch's own instance_norm."""
    xd = torch.from_numpy(x).double()
    sd = torch.from_numpy(s).double()
    s_mean = sd.mean(dim=(2, 3), keepdim=True)
    s_var = sd.var(dim=(2, 3), unbiased=False, keepdim=True)
    s_std = (s_var + EPS).sqrt()
    y = F.instance_norm(xd, eps=EPS) * s_std + s_mean
    # cross-check against the formula written out
    m = xd.mean(dim=(2, 3), keepdim=True)
    v = xd.var(dim=(2, 3), unbiased=False, keepdim=True)
    y2 = s_std * (xd - m) / (v + EPS).sqrt() + s_mean
    assert torch.max(torch.abs(y - y2)).item() < 1e-12
    return y.numpy(), m.flatten().tolist(), v.flatten().tolist(), s_mean.flatten().tolist(), s_std.flatten().tolist()


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.default_rng(12)
    h, w = 9, 13  # odd sizes: no row/column mix-up goes unnoticed
    tests = {
        "gray": rng.integers(0, 256, (h, w, 1)),
        "gray-alpha": rng.integers(0, 256, (h, w, 2)),
        "rgb": rng.integers(0, 256, (h, w, 3)),
        "rgba": rng.integers(0, 256, (h, w, 4)),
    }
    for name, px in tests.items():
        path = os.path.join(OUT, name + ".png")
        write_png(path, px.astype(np.uint8))
        back = read_png(path)
        assert np.array_equal(back, px.astype(np.uint8)), name  # the reader reads what was written
        save_npy(os.path.join(OUT, name + ".x.npy"), image_tensor(back))
    write_png(os.path.join(OUT, "rgb16.png"), rng.integers(0, 65536, (4, 5, 3)), depth=16)

    cases = [
        ("adain-rgb", os.path.join(ROOT, "assets/images/content-stripes.png"),
         os.path.join(ROOT, "assets/images/style-sunset.png")),
        ("adain-rgb-mosaic", os.path.join(ROOT, "assets/images/content-checker.png"),
         os.path.join(ROOT, "assets/images/style-mosaic.png")),
        ("adain-gray", os.path.join(OUT, "gray.png"), os.path.join(OUT, "gray-alpha.png")),
    ]
    index = []
    for name, content, style in cases:
        d = os.path.join(OUT, name)
        os.makedirs(d, exist_ok=True)
        x = image_tensor(read_png(content))
        s = image_tensor(read_png(style))
        y, m, v, sm, ss = adain_torch(x, s)
        save_npy(os.path.join(d, "x.npy"), x)
        save_npy(os.path.join(d, "style.npy"), s)
        save_npy(os.path.join(d, "y.npy"), y)
        rel = lambda p: os.path.relpath(p, ROOT)
        exp = {"content": rel(content), "style": rel(style), "eps": EPS, "mean": m, "var": v,
               "style_mean": sm, "style_std": ss}
        with open(os.path.join(d, "expected.json"), "w") as fh:
            json.dump(exp, fh, indent=1)
            fh.write("\n")
        index.append(name)
    with open(os.path.join(OUT, "cases.json"), "w") as fh:
        json.dump({"torch": torch.__version__, "numpy": np.__version__, "adain": index}, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    sys.exit(main())
