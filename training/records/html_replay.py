"""A game record as one self-contained HTML page: a replay viewer to open in any browser.

::

    from boardgame_envs.training.records.game_records import load_record
    from boardgame_envs.training.records.html_replay import write_html

    write_html(load_record("games/wasabi-0.json"), "wasabi-0.html")

or ``boardgame-envs replay games/wasabi-0.json --out wasabi-0.html``. The page is one file
that needs no network and no build step: its style, its script and every frame are inside
it. For every decision of the game it shows a picture of the position (the game's
``render_rgb``) and its text board (``render_text``), the move list (click a move to go
there), the scores, and controls: first, back, play/pause, forward, last, a slider and
the speed. Keys: ← and → step, space plays or pauses, Home and End jump to the start and
the end.

A seat selector shows the game as every seat saw it: "everything" (a spectator's view),
or one seat's view, in which the other seats' hidden facts stay hidden. A seat's frames
are made from that seat's point of view (``render_text(state, seat)``, the picture drawn
for that seat, the scores as that seat knows them) and a move of another seat that the
seat could not tell from another legal move (a Cornucopia bet, a card discarded face
down) reads as hidden. ``views=[1]`` writes a page with seat 1's view only, which holds
nothing seat 1 could not see.

Size: every distinct picture is stored once, and a picture that differs from an earlier
one in a few places is stored as those places only (the page rebuilds it), so a long game
at the largest table stays within a few megabytes.
"""

from __future__ import annotations

import base64
import hashlib
import html
import inspect
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from boardgame_envs.core import image
from boardgame_envs.core.rules import InvalidConfigError, State, is_integer
from boardgame_envs.registry import game_info
from boardgame_envs.training.records.game_records import check_record, replay_states
from boardgame_envs.training.records.narration import describe_move

#: Format tag of the data embedded in a page (``viewer_data``).
DATA_FORMAT = "boardgame-envs-viewer/1"
#: A picture is stored as its changes from an earlier one at most this many times in a row
#: (the page rebuilds a picture from the last full one: a jump costs at most this many).
MAX_CHAIN = 60
#: Changed pixels closer than this (rows, then columns) are stored as one rectangle.
ROW_GAP, COLUMN_GAP = 8, 16


# -- the public API -------------------------------------------------------------------------
def write_html(
    record: dict[str, Any],
    path: str | Path,
    *,
    views: Sequence[int | None] | None = None,
    seat: int | None = None,
) -> Path:
    """Write the replay viewer of ``record`` (a game record, see
    :mod:`boardgame_envs.training.records`) to ``path``; returns the path. See
    :func:`render_html` for ``views`` and ``seat``."""
    path = Path(path)
    page = render_html(record, views=views, seat=seat)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page, encoding="utf-8")
    return path


def render_html(
    record: dict[str, Any],
    *,
    views: Sequence[int | None] | None = None,
    seat: int | None = None,
) -> str:
    """The replay viewer of ``record`` as the text of one HTML page.

    ``views``: the points of view the page holds, ``None`` for everything (a spectator)
    and seat numbers for what a seat saw; default: everything, then every seat. ``seat``:
    the view shown when the page opens (default: the first of ``views``).
    :class:`~boardgame_envs.core.rules.InvalidConfigError` for a bad record, view or seat.
    """
    data = viewer_data(record, views=views, seat=seat)
    title = html.escape(data["title"])
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    payload = payload.replace("</", "<\\/").replace("<!--", "<\\!--")
    return (
        _PAGE.replace("{{TITLE}}", title)
        .replace("{{STYLE}}", _STYLE)
        .replace("{{SCRIPT}}", _SCRIPT)
        .replace("{{DATA}}", payload)
    )


def viewer_data(
    record: dict[str, Any],
    *,
    views: Sequence[int | None] | None = None,
    seat: int | None = None,
) -> dict[str, Any]:
    """Everything the page shows, as the JSON-ready dict it embeds (for tools and tests).

    Per view (``views[v]``): ``frames[v]`` lists, for every position (before each move,
    then the final one), the ids of its picture, its text and its scores; ``moves[v]``
    the id of each move's text. Pictures are ``{"png": k}`` (``pngs[k]``, base64) or
    ``{"base": id, "png": k, "patches": [[x, y, w, h, top], ...]}`` (picture ``id`` with,
    for each patch, the ``w`` x ``h`` pixels of ``pngs[k]`` at ``(0, top)`` drawn at
    ``(x, y)``); texts are lists of ``lines`` ids.
    """
    check_record(record)
    game, n = record["game"], record["num_players"]
    views = _check_views(views, n)
    first = _check_first_view(seat, views)
    states = replay_states(record, engine="python")
    judge = replay_states(record) if _native_available(game) else states
    names = list(record["agents"])
    renderer = states[0].rules.renderer
    draw, by_view = _picture_function(renderer)
    tables = _Tables()
    pictures = _PictureStore()
    frames: list[list[list[int]]] = [[] for _ in views]
    previous: dict[int | None, tuple[int, np.ndarray]] = {}
    for state in states:
        drawn: dict[int | None, tuple[int, np.ndarray]] = {}
        for v, view in enumerate(views):
            picture_id = -1
            if draw is not None:
                key = view if by_view else None
                if key not in drawn:
                    array = draw(state, view)
                    # stored against this view's previous picture or the spectator's one
                    bases = [e for e in (previous.get(key), drawn.get(None)) if e is not None]
                    drawn[key] = (pictures.add(array, bases), array)
                picture_id = drawn[key][0]
            text = state.render_text(view, legend=False)
            scores = _score_texts(renderer, state, view)
            frames[v].append([picture_id, tables.text(text), tables.scores(scores)])
        pictures.flush()
        previous = drawn
    moves: list[list[int]] = [[] for _ in views]
    movers = []
    for step, action in enumerate(record["actions"]):
        before = judge[step]
        movers.append(before.current_player)
        texts = move_texts(before, action, views)
        for v, view in enumerate(views):
            moves[v].append(tables.move(texts[view]))
    final = states[-1]
    return {
        "format": DATA_FORMAT,
        "title": _title(record),
        "game": game,
        "gameTitle": game_info(game).title,
        "seed": record["seed"],
        "options": record["options"],
        "numPlayers": n,
        "agents": names,
        "lowerScoreWins": bool(final.rules.lower_score_wins),
        "winners": list(final.winners()),
        "result": _result_line(final, names),
        "views": [_view_label(view, names) for view in views],
        "viewSeats": list(views),
        "firstView": first,
        "deciders": [state.current_player for state in states],
        "movers": movers,
        "frames": frames,
        "moves": moves,
        "moveTexts": tables.move_texts,
        "lines": tables.lines,
        "texts": tables.texts,
        "scores": tables.score_sets,
        "pictures": pictures.pictures,
        "pngs": pictures.pngs,
        "legend": list(renderer.legend_lines()),
    }


def move_texts(before: State, action: int, views: Sequence[int | None]) -> dict[int | None, str]:
    """What ``action`` (played in ``before``) reads as from each view: the move itself to a
    spectator (None) and to the seat that moved; to another seat, "(hidden from P1)" where
    it could not tell the move from others
    (:func:`boardgame_envs.training.records.narration.describe_move`, the rule of
    ``boardgame-envs replay --seat`` and of ``play``)."""
    return {view: describe_move(before, action, view) for view in views}


# -- pictures -------------------------------------------------------------------------------
class _PictureStore:
    """Pictures, each stored whole (a PNG) or as the rectangles where it differs from an
    earlier picture, whichever is smaller; a picture equal to one of those it is compared
    with is not stored again. The rectangles of all the
    pictures added between two :meth:`flush` calls (one position, seen from every view)
    are stacked into one PNG, each distinct rectangle once: most of one move's changes look
    the same from every seat."""

    def __init__(self) -> None:
        self.pngs: list[str] = []
        self.pictures: list[dict[str, Any]] = []
        self._depth: list[int] = []
        self._pending: list[tuple[dict[str, Any], list[np.ndarray]]] = []

    def add(self, picture: np.ndarray, bases: Sequence[tuple[int, np.ndarray]]) -> int:
        """The id of ``picture``, stored if new; ``bases`` are (id, array) of earlier
        pictures it may be stored against (the closest one is used)."""
        best: tuple[int, int, list[tuple[int, int, int, int]]] | None = None
        for base_id, base in bases:
            if base.shape != picture.shape:
                continue
            boxes = changed_boxes(base, picture)
            if not boxes:
                return base_id  # the same picture (hashing every picture costs more)
            area = sum(w * h for _, _, w, h in boxes)
            if self._depth[base_id] < MAX_CHAIN and (best is None or area < best[0]):
                best = (area, base_id, boxes)
        height, width = picture.shape[:2]
        if best is not None and best[0] < 0.5 * width * height:
            _, base_id, boxes = best
            spec: dict[str, Any] = {"base": base_id, "png": -1, "patches": []}
            crops = []
            for x, y, w, h in boxes:
                spec["patches"].append([x, y, w, h, -1])
                crops.append(picture[y : y + h, x : x + w])
            self._pending.append((spec, crops))
            depth = self._depth[base_id] + 1
        else:
            spec, depth = {"png": self._png(picture)}, 0
        self.pictures.append(spec)
        self._depth.append(depth)
        return len(self.pictures) - 1

    def flush(self) -> None:
        """Store the rectangles of the pictures added since the last call, as one PNG."""
        if not self._pending:
            return
        tops: dict[bytes, int] = {}
        stack: list[np.ndarray] = []
        height = 0
        for spec, crops in self._pending:
            for patch, crop in zip(spec["patches"], crops):
                key = _key(np.ascontiguousarray(crop))
                if key not in tops:
                    tops[key] = height
                    stack.append(crop)
                    height += crop.shape[0]
                patch[4] = tops[key]
        atlas = np.zeros((height, max(crop.shape[1] for crop in stack), 3), dtype=np.uint8)
        top = 0
        for crop in stack:
            atlas[top : top + crop.shape[0], : crop.shape[1]] = crop
            top += crop.shape[0]
        png = self._png(atlas)
        for spec, _ in self._pending:
            spec["png"] = png
        self._pending = []

    def _png(self, picture: np.ndarray) -> int:
        data = image.png_bytes(picture, palette=True, level=9)
        self.pngs.append(base64.b64encode(data).decode("ascii"))
        return len(self.pngs) - 1


def _key(picture: np.ndarray) -> bytes:
    """A digest of a C-contiguous picture's pixels and shape."""
    return hashlib.blake2b(picture.data, digest_size=20).digest() + repr(picture.shape).encode()


def changed_boxes(before: np.ndarray, after: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Rectangles ``(x, y, width, height)`` that together cover every pixel where the two
    pictures (of one shape) differ: changed rows grouped into bands, each band's changed
    columns into runs, each rectangle trimmed to its changed rows."""
    differs = before != after
    changed = differs[..., 0] | differs[..., 1] | differs[..., 2]  # much faster than any()
    return mask_boxes(changed, ROW_GAP, COLUMN_GAP)


def mask_boxes(mask: np.ndarray, row_gap: int, column_gap: int) -> list[tuple[int, int, int, int]]:
    """Rectangles ``(x, y, width, height)`` covering the true pixels of ``mask``: rows with
    any grouped into bands (a new band after more than ``row_gap`` empty rows), each band's
    columns into runs (``column_gap``), each rectangle trimmed to its rows."""
    boxes = []
    for top, bottom in _runs(np.flatnonzero(mask.any(axis=1)), row_gap):
        band = mask[top : bottom + 1]
        for left, right in _runs(np.flatnonzero(band.any(axis=0)), column_gap):
            rows = np.flatnonzero(band[:, left : right + 1].any(axis=1))
            y0, y1 = top + int(rows[0]), top + int(rows[-1])
            boxes.append((int(left), y0, int(right - left + 1), y1 - y0 + 1))
    return boxes


def _runs(indices: np.ndarray, gap: int) -> list[tuple[int, int]]:
    """Sorted ``indices`` as (first, last) runs, a new run where the step exceeds ``gap``."""
    if not indices.size:
        return []
    breaks = np.flatnonzero(np.diff(indices) > gap)
    starts = [indices[0], *indices[breaks + 1]]
    ends = [*indices[breaks], indices[-1]]
    return [(int(a), int(b)) for a, b in zip(starts, ends)]


def _picture_function(
    renderer: Any,
) -> tuple[Callable[[State, int | None], np.ndarray] | None, bool]:
    """``(draw, by_view)``: ``draw(state, view)`` is the game's picture (the renderer's
    ``render_rgb``, None for a game without one); ``by_view`` says whether it is drawn for
    the view (the renderer takes a seat and hides what the seat may not see) or shows
    public facts only, the same for every view."""
    render_rgb = getattr(renderer, "render_rgb", None)
    if render_rgb is None:
        return None, False
    if "seat" in inspect.signature(render_rgb).parameters:
        return (lambda state, view: render_rgb(state, view)), True
    return (lambda state, view: render_rgb(state)), False


# -- texts, scores, labels ------------------------------------------------------------------
class _Tables:
    """Distinct lines, texts, score sets and move texts, each stored once."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.texts: list[list[int]] = []
        self.score_sets: list[list[str]] = []
        self.move_texts: list[str] = []
        self._lines: dict[str, int] = {}
        self._texts: dict[tuple[int, ...], int] = {}
        self._scores: dict[tuple[str, ...], int] = {}
        self._moves: dict[str, int] = {}

    def text(self, text: str) -> int:
        ids = tuple(_intern(self._lines, self.lines, line) for line in text.split("\n"))
        return _intern(self._texts, self.texts, ids, list(ids))

    def scores(self, scores: Sequence[str]) -> int:
        return _intern(self._scores, self.score_sets, tuple(scores), list(scores))

    def move(self, text: str) -> int:
        return _intern(self._moves, self.move_texts, text)


def _intern(index: dict, table: list, key: Any, value: Any = None) -> int:
    if key not in index:
        index[key] = len(table)
        table.append(key if value is None else value)
    return index[key]


def _score_texts(renderer: Any, state: State, view: int | None) -> list[str]:
    """Each seat's score as ``view`` may know it: the renderer's ``score_texts`` where a
    score can hold a secret (Tahiti's favourite tiles), else the scores themselves."""
    score_texts = getattr(renderer, "score_texts", None)
    if score_texts is not None:
        return list(score_texts(state, view))
    return [f"{score:g}" for score in state.scores()]


def _title(record: dict[str, Any]) -> str:
    table = " vs ".join(record["agents"])
    return f"{game_info(record['game']).title}: {table} (seed {record['seed']})"


def _view_label(view: int | None, names: Sequence[str]) -> str:
    if view is None:
        return "everything (spectator)"
    return f"P{view} ({names[view]})"


def _result_line(final: State, names: Sequence[str]) -> str:
    winners = final.winners()
    if len(winners) == 1:
        verdict = f"P{winners[0]} ({names[winners[0]]}) wins"
    else:
        verdict = " and ".join(f"P{s} ({names[s]})" for s in winners) + " share the win"
    scores = ", ".join(f"P{s} {x:g}" for s, x in enumerate(final.scores()))
    lowest = " (lowest score wins)" if final.rules.lower_score_wins else ""
    return f"{verdict}: {scores}{lowest}"


def _native_available(game: str) -> bool:
    from boardgame_envs.core.native import resolve_engine

    try:
        return resolve_engine(game, None) == "native"
    except InvalidConfigError:
        return False


def _check_views(views: Sequence[int | None] | None, n: int) -> list[int | None]:
    if views is None:
        return [None, *range(n)]
    allowed = f"None (everything) or seats 0 to {n - 1}"
    checked: list[int | None] = []
    for view in views:
        if view is not None and (not is_integer(view) or not 0 <= view < n):
            raise InvalidConfigError(f"view {view!r} is not allowed; allowed: {allowed}")
        view = None if view is None else int(view)
        if view in checked:
            raise InvalidConfigError(f"view {view!r} is given twice; allowed: {allowed}")
        checked.append(view)
    if not checked:
        raise InvalidConfigError(f"views is empty; give at least one of {allowed}")
    return checked


def _check_first_view(seat: int | None, views: list[int | None]) -> int:
    if seat is None:
        return 0
    if not is_integer(seat) or int(seat) not in views:
        shown = ", ".join("everything" if v is None else f"seat {v}" for v in views)
        raise InvalidConfigError(f"seat={seat!r} is not one of the page's views; allowed: {shown}")
    return views.index(int(seat))


# -- the page -------------------------------------------------------------------------------
_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{TITLE}}</title>
<style>{{STYLE}}</style>
</head>
<body>
<header>
  <h1 id="title">{{TITLE}}</h1>
  <p id="result"></p>
</header>
<nav id="controls" aria-label="replay controls">
  <button id="first" type="button" title="the start (Home)">|&#x25C0; start</button>
  <button id="prev" type="button" title="one move back (&#x2190;)">&#x25C0; back</button>
  <button id="play" type="button" title="play or pause (space)">&#x25B6; play</button>
  <button id="next" type="button" title="one move forward (&#x2192;)">forward &#x25B6;</button>
  <button id="last" type="button" title="the end (End)">end &#x25B6;|</button>
  <input id="slider" type="range" min="0" value="0" aria-label="position">
  <span id="position"></span>
  <label>speed <select id="speed">
    <option value="2000">slow</option><option value="1000">1 move/s</option>
    <option value="500" selected>2 moves/s</option><option value="200">fast</option>
  </select></label>
  <label>view <select id="view"></select></label>
</nav>
<main>
  <section id="board">
    <p id="move"></p>
    <canvas id="picture" width="1" height="1"></canvas>
    <pre id="text"></pre>
  </section>
  <aside>
    <table id="scores"><thead><tr><th></th><th>seat</th><th>agent</th><th>score</th></tr></thead>
      <tbody></tbody></table>
    <h2>Moves</h2>
    <ol id="moves" start="0"></ol>
  </aside>
</main>
<details id="legend"><summary>Key to the text board</summary><pre></pre></details>
<p id="keys">Keys: &#x2190; &#x2192; step &#xB7; space play/pause &#xB7; Home / End:
  start / end &#xB7; click a move to go there.</p>
<script type="application/json" id="replay-data">{{DATA}}</script>
<script>{{SCRIPT}}</script>
</body>
</html>
"""

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1em; color: #222; background: #fafaf7; }
h1 { font-size: 1.3em; margin: 0 0 .2em; }
h2 { font-size: 1em; margin: 1em 0 .3em; }
#result { margin: 0 0 .8em; color: #444; }
#controls { display: flex; flex-wrap: wrap; gap: .4em; align-items: center; margin-bottom: .8em; }
#controls button { font: inherit; padding: .25em .7em; cursor: pointer; }
#slider { flex: 1 1 12em; }
#position { min-width: 9em; font-variant-numeric: tabular-nums; }
main { display: flex; flex-wrap: wrap; gap: 1.2em; align-items: flex-start; }
#board { flex: 1 1 40em; min-width: 0; }
#move { font-weight: 600; margin: 0 0 .5em; min-height: 1.3em; }
#picture { display: block; max-width: 100%; height: auto; border: 1px solid #ccc; }
#picture.none { display: none; }
pre { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; line-height: 1.25;
      background: #fff; border: 1px solid #ddd; padding: .6em; overflow-x: auto; }
aside { flex: 0 1 24em; min-width: 16em; }
#scores { border-collapse: collapse; width: 100%; }
#scores th, #scores td { text-align: left; padding: .15em .5em; border-bottom: 1px solid #e4e4e4; }
#scores td.score { font-variant-numeric: tabular-nums; font-weight: 600; }
#scores tr.to-move td:first-child::before { content: "\\25B6"; }
#scores tr.winner td.score::after { content: " \\2605 winner"; font-weight: normal; }
#moves { max-height: 60vh; overflow-y: auto; margin: 0; padding-left: 3.2em; background: #fff;
         border: 1px solid #ddd; }
#moves li { cursor: pointer; padding: .05em .3em; }
#moves li:hover { background: #eef; }
#moves li.current { background: #ffe38a; }
#moves li.hidden-move { color: #777; font-style: italic; }
#keys { color: #666; font-size: .9em; }
"""

_SCRIPT = r"""
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("replay-data").textContent);
  const $ = (id) => document.getElementById(id);
  const last = D.frames[0].length - 1;
  let view = D.firstView, step = 0, timer = null, shown = 0;

  // -- pictures: whole PNGs, or an earlier picture with changed rectangles drawn over it
  const images = new Map(), built = new Map();
  function png(k) {
    if (!images.has(k)) {
      const img = new Image();
      img.src = "data:image/png;base64," + D.pngs[k];
      images.set(k, img.decode().then(() => img));
    }
    return images.get(k);
  }
  function picture(id) {
    let canvas = built.get(id);
    if (canvas) { built.delete(id); built.set(id, canvas); return canvas; }  // recently used
    canvas = build(id);
    built.set(id, canvas);
    if (built.size > 48) built.delete(built.keys().next().value);
    return canvas;
  }
  async function build(id) {
    const spec = D.pictures[id], canvas = document.createElement("canvas");
    const ctx = canvas.getContext("2d");
    if (spec.base === undefined) {
      const img = await png(spec.png);
      canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
      ctx.drawImage(img, 0, 0);
    } else {
      const base = await picture(spec.base);
      canvas.width = base.width; canvas.height = base.height;
      ctx.drawImage(base, 0, 0);
      const img = await png(spec.png);  // the changed rectangles, stacked
      for (const [x, y, w, h, top] of spec.patches) ctx.drawImage(img, 0, top, w, h, x, y, w, h);
    }
    return canvas;
  }
  async function drawPicture(id, ticket) {
    const out = $("picture");
    if (id < 0) { out.classList.add("none"); return; }
    const canvas = await picture(id);
    if (ticket !== shown) return;  // a later step was asked for meanwhile
    if (out.width !== canvas.width || out.height !== canvas.height) {
      out.width = canvas.width; out.height = canvas.height;
    }
    out.getContext("2d").drawImage(canvas, 0, 0);
  }

  // -- texts
  const text = (id) => D.texts[id].map((line) => D.lines[line]).join("\n");
  const moveText = (m) => D.moveTexts[D.moves[view][m]];
  function moveLine(m) {
    const seat = D.movers[m];
    return "P" + seat + " (" + D.agents[seat] + "): " + moveText(m);
  }

  function fillMoves() {
    const list = $("moves");
    list.textContent = "";
    const start = document.createElement("li");
    start.textContent = "start of the game";
    start.dataset.step = "0";
    list.appendChild(start);
    for (let m = 0; m < D.movers.length; m++) {
      const item = document.createElement("li");
      item.textContent = moveLine(m);
      item.dataset.step = String(m + 1);
      if (moveText(m).includes("(hidden from")) item.classList.add("hidden-move");
      list.appendChild(item);
    }
  }

  function fillScores(scores) {
    const body = $("scores").tBodies[0];
    body.textContent = "";
    for (let s = 0; s < D.numPlayers; s++) {
      const row = body.insertRow();
      row.dataset.seat = String(s);
      if (D.deciders[step] === s) row.classList.add("to-move");
      if (step === last && D.winners.includes(s)) row.classList.add("winner");
      row.insertCell();
      row.insertCell().textContent = "P" + s;
      row.insertCell().textContent = D.agents[s];
      const cell = row.insertCell();
      cell.className = "score";
      cell.textContent = scores[s];
    }
  }

  function show() {
    const [pictureId, textId, scoresId] = D.frames[view][step];
    shown += 1;
    drawPicture(pictureId, shown);
    $("text").textContent = text(textId);
    fillScores(D.scores[scoresId]);
    $("position").textContent = "move " + step + " of " + last;
    $("slider").value = String(step);
    let what;
    if (step === 0) what = "Start of the game";
    else what = "Move " + step + ": " + moveLine(step - 1);
    if (step === last) what += " \u00B7 game over: " + D.result;
    else what += " \u00B7 P" + D.deciders[step] + " to decide";
    $("move").textContent = what;
    for (const item of $("moves").querySelectorAll("li.current")) item.classList.remove("current");
    const current = $("moves").children[step];
    if (current) {
      current.classList.add("current");
      const list = $("moves"), top = current.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = top - list.clientHeight / 2;
      }
    }
    document.body.dataset.step = String(step);
    document.body.dataset.view = String(view);
  }

  function go(to) { step = Math.max(0, Math.min(last, to)); show(); }
  function pause() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    $("play").textContent = "\u25B6 play";
  }
  function play() {
    if (timer !== null) return;
    if (step === last) go(0);
    $("play").textContent = "|| pause";
    timer = setInterval(() => { if (step >= last) pause(); else go(step + 1); },
                        Number($("speed").value));
  }
  const toggle = () => (timer === null ? play() : pause());

  $("first").onclick = () => { pause(); go(0); };
  $("prev").onclick = () => { pause(); go(step - 1); };
  $("next").onclick = () => { pause(); go(step + 1); };
  $("last").onclick = () => { pause(); go(last); };
  $("play").onclick = toggle;
  $("slider").max = String(last);
  $("slider").oninput = () => { pause(); go(Number($("slider").value)); };
  $("speed").onchange = () => { if (timer !== null) { pause(); play(); } $("speed").blur(); };
  $("moves").onclick = (event) => {
    const item = event.target.closest("li");
    if (item) { pause(); go(Number(item.dataset.step)); }
  };
  const views = $("view");
  D.views.forEach((label, v) => views.add(new Option(label, String(v))));
  views.value = String(view);
  views.onchange = () => { view = Number(views.value); fillMoves(); show(); views.blur(); };
  document.addEventListener("keydown", (event) => {
    const tag = event.target.tagName;
    if (tag === "SELECT" || tag === "INPUT" || event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    const keys = {
      ArrowLeft: () => { pause(); go(step - 1); },
      ArrowRight: () => { pause(); go(step + 1); },
      Home: () => { pause(); go(0); },
      End: () => { pause(); go(last); },
      " ": toggle,
    };
    if (keys[event.key]) { event.preventDefault(); keys[event.key](); }
  });

  $("result").textContent = D.gameTitle + " \u00B7 seed " + D.seed + " \u00B7 " + D.numPlayers +
    " players \u00B7 " + D.result;
  document.querySelector("#legend pre").textContent = D.legend.join("\n");
  fillMoves();
  show();
})();
"""
