#!/usr/bin/env python3
"""Generates assets/sprites.png: AnimDemo's sprite atlas.

A 256x64 RGBA PNG holding 8 sprites of 32x32 in the top row (x = 32 * index, y = 0):
0 circle, 1 rounded square, 2 diamond, 3 star, 4 ring, 5 triangle, 6 cross, 7 heart.
Each sprite is a coloured shape with anti-aliased, alpha-blended edges, a dark outline and a
white notch near its top edge, so that rotation is visible even on the round shapes. The bottom
row (y = 32...63) holds the same shapes at half opacity, for fading effects.

The output is deterministic: pure geometry, 4x4 supersampling, no randomness, no timestamps.
Standard library only (zlib + struct), so it runs on any python3.

Usage: python3 scripts/make_assets.py [output.png]   (default: assets/sprites.png next to this
script's parent folder)
"""

import math
import os
import struct
import sys
import zlib

CELL = 32
COLUMNS = 8
ROWS = 2
WIDTH = CELL * COLUMNS
HEIGHT = CELL * ROWS
SUPERSAMPLE = 4

# Fill colours (r, g, b) for the 8 sprites, chosen to stay distinct on a dark background.
COLORS = [
    (235, 64, 52),  # circle: red
    (52, 152, 219),  # square: blue
    (46, 204, 113),  # diamond: green
    (241, 196, 15),  # star: yellow
    (155, 89, 182),  # ring: purple
    (230, 126, 34),  # triangle: orange
    (26, 188, 156),  # cross: teal
    (236, 112, 170),  # heart: pink
]


def inside_circle(x, y):
    return x * x + y * y <= 0.88 * 0.88


def inside_square(x, y):
    # A rounded square: the corners are circles of radius r.
    half, r = 0.78, 0.22
    dx = max(abs(x) - (half - r), 0.0)
    dy = max(abs(y) - (half - r), 0.0)
    return abs(x) <= half and abs(y) <= half and dx * dx + dy * dy <= r * r


def inside_diamond(x, y):
    return abs(x) + abs(y) <= 0.9


def inside_star(x, y):
    # A five-pointed star, point up: a point is inside when its radius is below the star's outline
    # at its angle (linear between outer and inner vertices).
    radius = math.hypot(x, y)
    if radius == 0.0:
        return True
    outer, inner = 0.95, 0.40
    angle = (math.atan2(x, -y)) % (2 * math.pi)  # 0 at the top, clockwise
    sector = 2 * math.pi / 5
    local = angle % sector
    t = abs(local - sector / 2) / (sector / 2)  # 1 at a point, 0 between points
    # Straight edges between vertices: intersect the ray with the edge from inner to outer vertex.
    a0 = sector / 2  # angle between a point and the next inner vertex
    theta = (1 - t) * a0
    # Edge from outer vertex (angle 0, radius outer) to inner vertex (angle a0, radius inner).
    ox, oy = outer, 0.0
    ix, iy = inner * math.cos(a0), inner * math.sin(a0)
    ex, ey = ix - ox, iy - oy
    dx, dy = math.cos(theta), math.sin(theta)
    # Solve s*(dx,dy) = (ox,oy) + u*(ex,ey) for s.
    det = dx * (-ey) - dy * (-ex)
    s = (ox * (-ey) - oy * (-ex)) / det
    return radius <= s


def inside_ring(x, y):
    radius = math.hypot(x, y)
    return 0.52 <= radius <= 0.9


def inside_triangle(x, y):
    # Equilateral, point up, centred on its centroid.
    top = (0.0, -0.92)
    left = (-0.8, 0.46)
    right = (0.8, 0.46)

    def side(p, a, b):
        return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])

    p = (x, y)
    s1, s2, s3 = side(p, top, right), side(p, right, left), side(p, left, top)
    return (s1 >= 0 and s2 >= 0 and s3 >= 0) or (s1 <= 0 and s2 <= 0 and s3 <= 0)


def inside_cross(x, y):
    arm = 0.28
    return (abs(x) <= arm and abs(y) <= 0.9) or (abs(y) <= arm and abs(x) <= 0.9)


def inside_heart(x, y):
    # The classic implicit heart (x^2 + y^2 - 1)^3 - x^2 y^3 <= 0, scaled and flipped so it points down.
    hx, hy = x * 1.25, -(y * 1.25) + 0.18
    value = (hx * hx + hy * hy - 1) ** 3 - hx * hx * hy ** 3
    return value <= 0


SHAPES = [
    inside_circle,
    inside_square,
    inside_diamond,
    inside_star,
    inside_ring,
    inside_triangle,
    inside_cross,
    inside_heart,
]


def coverage(shape, px, py, inset=0.0):
    """Fraction of the 4x4 sub-samples of pixel (px, py) inside `shape` shrunk by `inset`."""
    hits = 0
    scale = 1.0 / (1.0 - inset) if inset else 1.0
    for sy in range(SUPERSAMPLE):
        for sx in range(SUPERSAMPLE):
            # Map the sub-sample to [-1, 1] across the cell.
            x = ((px + (sx + 0.5) / SUPERSAMPLE) / CELL) * 2 - 1
            y = ((py + (sy + 0.5) / SUPERSAMPLE) / CELL) * 2 - 1
            if shape(x * scale, y * scale):
                hits += 1
    return hits / (SUPERSAMPLE * SUPERSAMPLE)


def notch(px, py):
    """Coverage of the white rotation marker: a small disc near the top of the cell."""
    hits = 0
    for sy in range(SUPERSAMPLE):
        for sx in range(SUPERSAMPLE):
            x = ((px + (sx + 0.5) / SUPERSAMPLE) / CELL) * 2 - 1
            y = ((py + (sy + 0.5) / SUPERSAMPLE) / CELL) * 2 - 1
            if x * x + (y + 0.6) ** 2 <= 0.13 * 0.13:
                hits += 1
    return hits / (SUPERSAMPLE * SUPERSAMPLE)


def render_sprite(index):
    """Returns the 32x32 RGBA pixels of sprite `index`, as a list of rows of (r, g, b, a)."""
    shape = SHAPES[index]
    red, green, blue = COLORS[index]
    rows = []
    for py in range(CELL):
        row = []
        for px in range(CELL):
            outer = coverage(shape, px, py)
            inner = coverage(shape, px, py, inset=0.14)
            if outer == 0.0:
                row.append((0, 0, 0, 0))
                continue
            # Fill where the inset shape covers; a darker outline in the band between.
            fill_share = inner / outer if outer else 0.0
            shade = 0.45
            r = red * fill_share + red * shade * (1 - fill_share)
            g = green * fill_share + green * shade * (1 - fill_share)
            b = blue * fill_share + blue * shade * (1 - fill_share)
            # A subtle vertical gradient on the fill.
            light = 1.08 - 0.16 * (py / (CELL - 1))
            r, g, b = r * light, g * light, b * light
            marker = notch(px, py) * inner
            r = r * (1 - marker) + 255 * marker
            g = g * (1 - marker) + 255 * marker
            b = b * (1 - marker) + 255 * marker
            row.append((clamp(r), clamp(g), clamp(b), clamp(255 * outer)))
        rows.append(row)
    return rows


def clamp(value):
    return max(0, min(255, int(round(value))))


def build_atlas():
    """Returns the atlas as a list of HEIGHT rows of WIDTH (r, g, b, a) tuples."""
    atlas = [[(0, 0, 0, 0)] * WIDTH for _ in range(HEIGHT)]
    for index in range(COLUMNS):
        sprite = render_sprite(index)
        for py in range(CELL):
            for px in range(CELL):
                r, g, b, a = sprite[py][px]
                atlas[py][index * CELL + px] = (r, g, b, a)
                atlas[CELL + py][index * CELL + px] = (r, g, b, a // 2)
    return atlas


def png_chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def encode_png(rows):
    height = len(rows)
    width = len(rows[0])
    raw = bytearray()
    for row in rows:
        raw.append(0)  # filter type: none
        for r, g, b, a in row:
            raw += bytes((r, g, b, a))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA, no interlace
    return (
        b"\x89PNG\r\n\x1a\n"
        + png_chunk(b"IHDR", header)
        + png_chunk(b"IDAT", zlib.compress(bytes(raw), 9))
        + png_chunk(b"IEND", b"")
    )


def main(argv):
    if len(argv) > 2:
        sys.stderr.write("usage: make_assets.py [output.png]\n")
        return 2
    default = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "assets", "sprites.png")
    output = os.path.normpath(argv[1] if len(argv) == 2 else default)
    os.makedirs(os.path.dirname(output) or ".", exist_ok=True)
    data = encode_png(build_atlas())
    with open(output, "wb") as file:
        file.write(data)
    print(f"wrote {output} ({WIDTH}x{HEIGHT} RGBA, {len(data)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
