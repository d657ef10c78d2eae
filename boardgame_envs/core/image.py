"""Small raster drawing helpers for ``rgb_array`` renderers, and a PNG writer.

numpy only, so pictures need no plotting library: a renderer draws into an
``uint8[height, width, 3]`` canvas with these primitives and returns it;
:func:`save_png` writes any such array to a file (zlib + the PNG chunk format), and
:func:`png_bytes` returns the file's bytes (an indexed PNG on request: smaller).
Text: :func:`draw_label` writes words in a 5x7 pixel font (capitals, digits, signs);
:func:`draw_text` writes digits only, in a smaller 3x5 font.
Coordinates are (x, y) in pixels, y downwards; colours are (r, g, b) tuples.
"""

from __future__ import annotations

import functools
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
    image[:] = _row(colour, width)
    return image


def _row(colour: Colour, width: int) -> np.ndarray:
    """One row of ``width`` pixels in ``colour``: filling an area row by row from it is
    several times faster than broadcasting the 3-tuple over the area."""
    row = np.empty((width, 3), dtype=np.uint8)
    row[:] = colour
    return row


def fill_rect(image: np.ndarray, x: int, y: int, w: int, h: int, colour: Colour) -> None:
    """Fill the rectangle with top-left (x, y), clipped to the canvas."""
    height, width = image.shape[:2]
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, width), min(y + h, height)
    if x0 < x1 and y0 < y1:
        image[y0:y1, x0:x1] = _row(colour, x1 - x0)


def outline_rect(
    image: np.ndarray, x: int, y: int, w: int, h: int, colour: Colour, thickness: int = 1
) -> None:
    fill_rect(image, x, y, w, thickness, colour)
    fill_rect(image, x, y + h - thickness, w, thickness, colour)
    fill_rect(image, x, y, thickness, h, colour)
    fill_rect(image, x + w - thickness, y, thickness, h, colour)


def fill_circle(image: np.ndarray, cx: float, cy: float, radius: float, colour: Colour) -> None:
    height, width = image.shape[:2]
    # only the circle's bounding box is tested (the whole canvas would cost 100x more)
    x0, x1 = max(int(np.floor(cx - radius)), 0), min(int(np.ceil(cx + radius)) + 1, width)
    y0, y1 = max(int(np.floor(cy - radius)), 0), min(int(np.ceil(cy + radius)) + 1, height)
    if x0 >= x1 or y0 >= y1:
        return
    ys, xs = np.ogrid[y0:y1, x0:x1]
    image[y0:y1, x0:x1][(xs - cx) ** 2 + (ys - cy) ** 2 <= radius**2] = colour


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
    bits = _label_bits(text, scale)
    rows, cols = image.shape[:2]
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + width, cols), min(y + height, rows)
    if x0 < x1 and y0 < y1:
        image[y0:y1, x0:x1][bits[y0 - y : y1 - y, x0 - x : x1 - x]] = colour
    return width


@functools.lru_cache(maxsize=4096)  # pictures redraw the same labels frame after frame
def _label_bits(text: str, scale: int) -> np.ndarray:
    """The pixels of ``text`` in the 5x7 font (True: ink), read-only."""
    width = label_size(text, scale)[0]
    bits = np.zeros((FONT_HEIGHT, len(text) * (FONT_WIDTH + 1)), dtype=bool)
    for i, char in enumerate(text.upper()):
        glyph = _FONT.get(char, _FONT["?"])
        bits[:, i * (FONT_WIDTH + 1) : i * (FONT_WIDTH + 1) + FONT_WIDTH] = glyph
    bits = bits[:, : width // scale].repeat(scale, axis=0).repeat(scale, axis=1)
    bits.flags.writeable = False
    return bits


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


def png_bytes(image: np.ndarray, palette: bool = False, level: int = 6) -> bytes:
    """An ``uint8[h, w, 3]`` array as the bytes of a PNG file.

    ``palette=True`` writes an indexed PNG (a table of the colours, one byte a pixel) when
    the picture has at most 256 colours, as the games' pictures do: about a third smaller.
    ``level`` is zlib's compression level (0-9).
    """
    image = np.ascontiguousarray(image, dtype=np.uint8)
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"expected an RGB array of shape (h, w, 3), got {image.shape}")
    height, width = image.shape[:2]
    colours, pixels = None, image
    if palette:
        packed = image.astype(np.uint32)
        packed = (packed[..., 0] << 16) | (packed[..., 1] << 8) | packed[..., 2]
        colours, index = np.unique(packed, return_inverse=True)
        if len(colours) <= 256:
            pixels = index.astype(np.uint8).reshape(height, width)
        else:
            colours = None
    rows = np.zeros((height, 1 + pixels[0].size), dtype=np.uint8)  # filter byte 0: none
    rows[:, 1:] = pixels.reshape(height, -1)

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    colour_type = 2 if colours is None else 3
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    table = b""
    if colours is not None:
        rgb = np.stack([colours >> 16, (colours >> 8) & 255, colours & 255], axis=1)
        table = chunk(b"PLTE", rgb.astype(np.uint8).tobytes())
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + table
        + chunk(b"IDAT", zlib.compress(rows.tobytes(), level))
        + chunk(b"IEND", b"")
    )


def save_png(image: np.ndarray, path: str | Path) -> Path:
    """Write an ``uint8[h, w, 3]`` array as a PNG file; returns the path."""
    path = Path(path)
    path.write_bytes(png_bytes(image))
    return path


def draw_seat_header(
    image: np.ndarray,
    box: tuple[int, int, int, int],
    colours: tuple[Colour, Colour, Colour],
    label: str,
    to_move: bool,
    marker: Colour | None = None,
) -> None:
    """The head of one seat's block in a table picture: the block's panel ``box`` (x, y,
    width, height) with a stripe of the seat's colour, a triangle when it is ``to_move``
    (in ``marker``, default the text colour), a swatch and ``label`` (e.g. "P0 red (you)").
    ``colours``: (panel, seat, text)."""
    x0, y0, width, height = box
    panel, seat, text = colours
    fill_rect(image, x0, y0, width, height, panel)
    fill_rect(image, x0, y0, 4, height, seat)
    if to_move:
        triangle = [(x0 + 8, y0 + 3), (x0 + 16, y0 + 9), (x0 + 8, y0 + 15)]
        fill_polygon(image, triangle, text if marker is None else marker)
    fill_rect(image, x0 + 20, y0 + 3, 12, 12, seat)
    outline_rect(image, x0 + 20, y0 + 3, 12, 12, text)
    draw_label(image, x0 + 38, y0 + 3, label, text, 2)
