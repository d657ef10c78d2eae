"""Small raster drawing helpers for ``rgb_array`` renderers, and a PNG writer.

numpy only, so pictures need no plotting library: a renderer draws into an
``uint8[height, width, 3]`` canvas with these primitives and returns it;
:func:`save_png` writes any such array to a file (zlib + the PNG chunk format).
Text: :func:`draw_label` writes words in a 5x7 pixel font (capitals, digits, signs);
:func:`draw_text` writes digits only, in a smaller 3x5 font.
Coordinates are (x, y) in pixels, y downwards; colours are (r, g, b) tuples.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np

Colour = tuple[int, int, int]

WHITE: Colour = (255, 255, 255)
BLACK: Colour = (0, 0, 0)
GREY: Colour = (128, 128, 128)


def canvas(width: int, height: int, colour: Colour = WHITE) -> np.ndarray:
    image = np.empty((height, width, 3), dtype=np.uint8)
    image[:] = colour
    return image


def fill_rect(image: np.ndarray, x: int, y: int, w: int, h: int, colour: Colour) -> None:
    """Fill the rectangle with top-left (x, y), clipped to the canvas."""
    height, width = image.shape[:2]
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, width), min(y + h, height)
    if x0 < x1 and y0 < y1:
        image[y0:y1, x0:x1] = colour


def outline_rect(
    image: np.ndarray, x: int, y: int, w: int, h: int, colour: Colour, thickness: int = 1
) -> None:
    fill_rect(image, x, y, w, thickness, colour)
    fill_rect(image, x, y + h - thickness, w, thickness, colour)
    fill_rect(image, x, y, thickness, h, colour)
    fill_rect(image, x + w - thickness, y, thickness, h, colour)


def fill_circle(image: np.ndarray, cx: float, cy: float, radius: float, colour: Colour) -> None:
    height, width = image.shape[:2]
    ys, xs = np.ogrid[:height, :width]
    image[(xs - cx) ** 2 + (ys - cy) ** 2 <= radius**2] = colour


def fill_polygon(image: np.ndarray, points: list[tuple[float, float]], colour: Colour) -> None:
    """Fill a convex polygon given by its corners in order (hexes, triangles, …)."""
    height, width = image.shape[:2]
    xs_all = [p[0] for p in points]
    ys_all = [p[1] for p in points]
    x0, x1 = max(int(min(xs_all)), 0), min(int(max(xs_all)) + 1, width)
    y0, y1 = max(int(min(ys_all)), 0), min(int(max(ys_all)) + 1, height)
    if x0 >= x1 or y0 >= y1:
        return
    ys, xs = np.mgrid[y0:y1, x0:x1]
    xs = xs + 0.5
    ys = ys + 0.5
    inside = np.ones(xs.shape, dtype=bool)
    signs = []
    for (ax, ay), (bx, by) in zip(points, points[1:] + points[:1]):
        signs.append((bx - ax) * (ys - ay) - (by - ay) * (xs - ax))
    inside = np.all([s >= 0 for s in signs], axis=0) | np.all([s <= 0 for s in signs], axis=0)
    image[y0:y1, x0:x1][inside] = colour


def draw_line(
    image: np.ndarray,
    a: tuple[float, float],
    b: tuple[float, float],
    colour: Colour,
    thickness: int = 1,
) -> None:
    steps = int(max(abs(b[0] - a[0]), abs(b[1] - a[1]))) + 1
    for t in np.linspace(0.0, 1.0, steps):
        x = a[0] + (b[0] - a[0]) * t
        y = a[1] + (b[1] - a[1]) * t
        half = thickness // 2
        fill_rect(image, int(x) - half, int(y) - half, thickness, thickness, colour)


# A 3x5 pixel font for digits and a few signs, enough for small scores and counts (see
# :func:`draw_label` below for words).
_GLYPHS = {
    "0": "111101101101111",
    "1": "010110010010111",
    "2": "111001111100111",
    "3": "111001111001111",
    "4": "101101111001001",
    "5": "111100111001111",
    "6": "111100111101111",
    "7": "111001001001001",
    "8": "111101111101111",
    "9": "111101111001111",
    "-": "000000111000000",
    "+": "000010111010000",
    " ": "000000000000000",
    "/": "001001010100100",
}


def draw_text(
    image: np.ndarray, x: int, y: int, text: str, colour: Colour = BLACK, scale: int = 2
) -> None:
    """Digits and ``+ - /`` in a 3x5 pixel font, ``scale`` pixels per font pixel."""
    for i, char in enumerate(text):
        glyph = _GLYPHS.get(char, _GLYPHS[" "])
        for bit, on in enumerate(glyph):
            if on == "1":
                gx, gy = bit % 3, bit // 3
                fill_rect(image, x + (i * 4 + gx) * scale, y + gy * scale, scale, scale, colour)


# A 5x7 pixel font for labels: digits, capital letters (lower case is drawn as capitals) and
# common signs; every glyph is 7 rows of 5 pixels, one character advances 6 pixels (times
# ``scale``). Unknown characters draw as ``?``.
FONT_WIDTH, FONT_HEIGHT = 5, 7
_FONT_ROWS = {
    "A": ".###. #...# #...# ##### #...# #...# #...#",
    "B": "####. #...# #...# ####. #...# #...# ####.",
    "C": ".###. #...# #.... #.... #.... #...# .###.",
    "D": "####. #...# #...# #...# #...# #...# ####.",
    "E": "##### #.... #.... ####. #.... #.... #####",
    "F": "##### #.... #.... ####. #.... #.... #....",
    "G": ".###. #...# #.... #.### #...# #...# .####",
    "H": "#...# #...# #...# ##### #...# #...# #...#",
    "I": ".###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.",
    "J": "..### ...#. ...#. ...#. ...#. #..#. .##..",
    "K": "#...# #..#. #.#.. ##... #.#.. #..#. #...#",
    "L": "#.... #.... #.... #.... #.... #.... #####",
    "M": "#...# ##.## #.#.# #.#.# #...# #...# #...#",
    "N": "#...# #...# ##..# #.#.# #..## #...# #...#",
    "O": ".###. #...# #...# #...# #...# #...# .###.",
    "P": "####. #...# #...# ####. #.... #.... #....",
    "Q": ".###. #...# #...# #...# #.#.# #..#. .##.#",
    "R": "####. #...# #...# ####. #.#.. #..#. #...#",
    "S": ".#### #.... #.... .###. ....# ....# ####.",
    "T": "##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",
    "U": "#...# #...# #...# #...# #...# #...# .###.",
    "V": "#...# #...# #...# #...# #...# .#.#. ..#..",
    "W": "#...# #...# #...# #.#.# #.#.# #.#.# .#.#.",
    "X": "#...# #...# .#.#. ..#.. .#.#. #...# #...#",
    "Y": "#...# #...# .#.#. ..#.. ..#.. ..#.. ..#..",
    "Z": "##### ....# ...#. ..#.. .#... #.... #####",
    "0": ".###. #...# #..## #.#.# ##..# #...# .###.",
    "1": "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.",
    "2": ".###. #...# ....# ...#. ..#.. .#... #####",
    "3": "##### ...#. ..#.. ...#. ....# #...# .###.",
    "4": "...#. ..##. .#.#. #..#. ##### ...#. ...#.",
    "5": "##### #.... ####. ....# ....# #...# .###.",
    "6": "..##. .#... #.... ####. #...# #...# .###.",
    "7": "##### ....# ...#. ..#.. .#... .#... .#...",
    "8": ".###. #...# #...# .###. #...# #...# .###.",
    "9": ".###. #...# #...# .#### ....# ...#. .##..",
    " ": "..... ..... ..... ..... ..... ..... .....",
    ".": "..... ..... ..... ..... ..... .##.. .##..",
    ",": "..... ..... ..... ..... .##.. ..#.. .#...",
    ":": "..... .##.. .##.. ..... .##.. .##.. .....",
    "!": "..#.. ..#.. ..#.. ..#.. ..#.. ..... ..#..",
    "?": ".###. #...# ....# ...#. ..#.. ..... ..#..",
    "-": "..... ..... ..... .###. ..... ..... .....",
    "+": "..... ..#.. ..#.. ##### ..#.. ..#.. .....",
    "/": "..... ....# ...#. ..#.. .#... #.... .....",
    "(": "...#. ..#.. .#... .#... .#... ..#.. ...#.",
    ")": ".#... ..#.. ...#. ...#. ...#. ..#.. .#...",
    "[": ".###. .#... .#... .#... .#... .#... .###.",
    "]": ".###. ...#. ...#. ...#. ...#. ...#. .###.",
    "<": "...#. ..#.. .#... #.... .#... ..#.. ...#.",
    ">": ".#... ..#.. ...#. ....# ...#. ..#.. .#...",
    "=": "..... ..... ##### ..... ##### ..... .....",
    "*": "..... ..#.. #.#.# .###. #.#.# ..#.. .....",
    "#": ".#.#. .#.#. ##### .#.#. ##### .#.#. .#.#.",
    "'": "..#.. ..#.. .#... ..... ..... ..... .....",
    "%": "##..# ##..# ...#. ..#.. .#... #..## #..##",
    "_": "..... ..... ..... ..... ..... ..... #####",
    "\u00b7": "..... ..... ..... .##.. .##.. ..... .....",
}
_FONT = {
    char: np.array([[c == "#" for c in row] for row in rows.split()], dtype=bool)
    for char, rows in _FONT_ROWS.items()
}


def label_size(text: str, scale: int = 1) -> tuple[int, int]:
    """Width and height in pixels of ``text`` drawn by :func:`draw_label`."""
    if not text:
        return 0, FONT_HEIGHT * scale
    return (len(text) * (FONT_WIDTH + 1) - 1) * scale, FONT_HEIGHT * scale


def draw_label(
    image: np.ndarray, x: int, y: int, text: str, colour: Colour = BLACK, scale: int = 1
) -> int:
    """Write ``text`` in the 5x7 font with its top-left at (x, y), clipped to the canvas;
    returns the width drawn, in pixels."""
    width, height = label_size(text, scale)
    if not width:
        return 0
    bits = np.zeros((FONT_HEIGHT, len(text) * (FONT_WIDTH + 1)), dtype=bool)
    for i, char in enumerate(text.upper()):
        glyph = _FONT.get(char, _FONT["?"])
        bits[:, i * (FONT_WIDTH + 1) : i * (FONT_WIDTH + 1) + FONT_WIDTH] = glyph
    bits = bits[:, : width // scale].repeat(scale, axis=0).repeat(scale, axis=1)
    rows, cols = image.shape[:2]
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + width, cols), min(y + height, rows)
    if x0 < x1 and y0 < y1:
        image[y0:y1, x0:x1][bits[y0 - y : y1 - y, x0 - x : x1 - x]] = colour
    return width


def find_label(
    image: np.ndarray, text: str, colour: Colour, scale: int = 1
) -> list[tuple[int, int]]:
    """The top-left corners (x, y) where :func:`draw_label` wrote ``text`` in ``colour``:
    every pixel of its glyphs in that colour and no other pixel of its box. For tests and
    tools that check what a picture says."""
    width, height = label_size(text, scale)
    rows, cols = image.shape[:2]
    if not width or width > cols or height > rows:
        return []
    stamp = canvas(width, height, BLACK)
    draw_label(stamp, 0, 0, text, WHITE, scale)
    on = stamp[..., 0] > 0
    inked = np.all(image == np.asarray(colour, dtype=image.dtype), axis=-1)
    span_y, span_x = rows - height + 1, cols - width + 1
    hits = np.ones((span_y, span_x), dtype=bool)
    for dy, dx in np.argwhere(np.ones_like(on)):
        window = inked[dy : dy + span_y, dx : dx + span_x]
        hits &= window if on[dy, dx] else ~window
        if not hits.any():
            return []
    return [(int(x), int(y)) for y, x in np.argwhere(hits)]


def save_png(image: np.ndarray, path: str | Path) -> Path:
    """Write an ``uint8[h, w, 3]`` array as a PNG file; returns the path."""
    image = np.ascontiguousarray(image, dtype=np.uint8)
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"expected an RGB array of shape (h, w, 3), got {image.shape}")
    height, width = image.shape[:2]
    raw = b"".join(b"\x00" + image[row].tobytes() for row in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    png = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 6))
        + chunk(b"IEND", b"")
    )
    path = Path(path)
    path.write_bytes(png)
    return path
