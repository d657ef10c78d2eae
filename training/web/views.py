"""What one seat's page shows: that seat's view of its table, and nothing else.

:func:`seat_view` is the whole answer to a seat's page: the picture of the table drawn for
the seat (the game's ``render_rgb``, as the replay viewer draws it), its text board
(``render_text(state, seat)``), the scores as the seat knows them, the moves so far as the
seat saw them (:func:`boardgame_envs.training.records.narration.describe_move`: another
seat's hidden move reads as hidden), whose turn it is, and, when the seat is to move, its
legal moves with their descriptions and where on the picture to click for them. It never
holds the state, another seat's hand, the deal seed or the generator (the seed and the
record come only when the game is over).

Where to click (:func:`click_targets`) is found from the pictures alone, for any game with
a picture: each legal move is applied to a copy of the position, the picture drawn again,
and the places where it changed (less those that every move changes, such as a turn
counter) are that move's places. Moves that change the same cells of the board (as the
game's observation planes tell, where it has them) are drawn once for all of them, and a
place that several moves change alike (a Carcassonne cell, where a tile can lie in several
rotations) offers those moves to choose from. So a move is found by clicking the
Carcassonne cell, the Tahiti hex or the Wasabi! cell it changes, and the server adds no
rule of its own. The copy is a position drawn from what the seat knows (the game's
determinizer, with a fixed seed), so the places depend on the seat's view only, never on
a card it has not seen.
"""

from __future__ import annotations

import base64
import concurrent.futures
import inspect
import os
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from boardgame_envs.core import image
from boardgame_envs.core.rules import State
from boardgame_envs.training.records.html_replay import mask_boxes
from boardgame_envs.training.web.tables import Table

#: A place to click is made at least this many pixels wide and high (small marks, such as a
#: canoe or a follower, are hard to hit otherwise).
MIN_TARGET = 24
#: Changed pixels closer than this are one place.
TARGET_GAP = 3


def seat_view(
    table: Table, seat: int, drawing: concurrent.futures.Executor | None = None
) -> dict[str, Any]:
    """Everything ``seat``'s page shows now, as a JSON-ready dict (see the module).
    ``drawing``: where the position is drawn (a pool of processes, say); None: here."""
    return finish_view(table, seat, board_future(table, seat, drawing).result())


def board_future(
    table: Table,
    seat: int,
    drawing: concurrent.futures.Executor | None = None,
    quick: concurrent.futures.Executor | None = None,
) -> concurrent.futures.Future:
    """The drawing of the position for ``seat`` (:func:`draw_board`), made once per
    position and seat (not again when an agent starts thinking) and shared by every
    request: a future, done or on its way in ``drawing`` (None: drawn here, now). The
    drawing of a seat that is not to move (no places to click: a few milliseconds) goes to
    ``quick`` instead, if given, so that it never waits behind a large position's."""

    def start() -> concurrent.futures.Future:
        spec = board_spec(table, seat)
        to_move = not table.finished and table.state.current_player == seat
        executor = drawing if to_move or quick is None else quick
        if executor is not None:
            return executor.submit(draw_board, spec)
        future: concurrent.futures.Future = concurrent.futures.Future()
        future.set_result(draw_board(spec))
        return future

    with table.lock:
        moves = len(table.actions)
    return table.cached(("board", seat, moves), start)


def finish_view(table: Table, seat: int, board: dict[str, Any]) -> dict[str, Any]:
    """The view: the drawn ``board`` and what changes while the position stays (whether an
    agent is thinking)."""
    with table.lock:
        version, moves = table.version, len(table.actions)
        thinking, agent_error = table.thinking, table.agent_error
    view = {"version": version, "thinking": thinking, "agentError": agent_error, **board}
    if board["move"] != moves:  # drawn just before a move: the page asks again
        view["version"] = -1
    if view["onlyMove"]:  # the server plays a person's only move (Table.run_agents)
        view["thinking"] = seat
    if view["thinking"] is not None:
        view["legal"], view["targets"] = [], []
    return view


def watch_parent(parent: int) -> None:
    """In a drawing process: exit when the server (process ``parent``) is gone, however it
    stopped (a ``SIGKILL`` leaves no time to stop its workers)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="watch-server", daemon=True).start()


def warm_up() -> None:
    """Import every game's rules and renderer (a worker process does it once, at start)."""
    from boardgame_envs.registry import GAMES

    for info in GAMES.values():
        info.rules("python").renderer  # noqa: B018 (imported on first use)


def board_spec(table: Table, seat: int) -> dict[str, Any]:
    """What :func:`draw_board` needs, as plain data (it may run in another process)."""
    with table.lock:
        return {
            "game": table.game,
            "state": table.state.to_json(),
            "seat": seat,
            "table": table.id,
            "title": table.info.title,
            "players": [_player_label(table, s, seat) for s in range(table.num_players)],
            "moves": len(table.actions),
            "log": list(table.log),
            "seed": table.seed,
        }


def draw_board(spec: dict[str, Any]) -> dict[str, Any]:
    """What a seat's page shows of one position (see the module), from :func:`board_spec`."""
    from boardgame_envs.registry import game_info

    state = game_info(spec["game"]).rules("python").from_json(spec["state"])
    seat, players = spec["seat"], spec["players"]
    renderer = state.rules.renderer
    draw = picture_function(renderer)
    finished = state.is_terminal()
    to_move = None if finished else int(state.current_player)
    view: dict[str, Any] = {
        "table": spec["table"],
        "seat": seat,
        "game": spec["game"],
        "title": spec["title"],
        "numPlayers": len(players),
        "players": players,
        "move": spec["moves"],
        "toMove": to_move,
        "finished": finished,
        "scores": score_texts(renderer, state, seat),
        "text": state.render_text(seat, legend=False),
        "legend": list(renderer.legend_lines()),
        "log": _log_lines(spec["log"], seat, players),
        "legal": [],
        "targets": [],
        "onlyMove": False,
        "picture": None,
        "pictureSize": None,
    }
    if draw is not None:
        picture = draw(state, seat)
        png = image.png_bytes(picture, level=6)
        view["picture"] = base64.b64encode(png).decode("ascii")
        view["pictureSize"] = [int(picture.shape[1]), int(picture.shape[0])]
    legal = state.legal_actions() if to_move == seat else []
    view["onlyMove"] = len(legal) == 1
    if len(legal) > 1:
        view["legal"] = [{"action": int(a), "text": state.describe_action(a)} for a in legal]
        if draw is not None:
            view["targets"] = click_targets(state, seat, draw)
    if finished:
        view["winners"] = [int(w) for w in state.winners()]
        view["result"] = result_line(state, players)
        view["seed"] = spec["seed"]
    return view


def picture_function(renderer: Any) -> Callable[[State, int], np.ndarray] | None:
    """``draw(state, seat)``: the game's picture as ``seat`` may see it (the renderer's
    ``render_rgb``; one that takes no seat shows public facts only); None for a game with
    no picture."""
    render_rgb = getattr(renderer, "render_rgb", None)
    if render_rgb is None:
        return None
    if "seat" in inspect.signature(render_rgb).parameters:
        return lambda state, seat: render_rgb(state, seat)
    return lambda state, seat: render_rgb(state)


def score_texts(renderer: Any, state: State, seat: int) -> list[str]:
    """Each seat's score as ``seat`` may know it (the renderer's ``score_texts`` where a
    score can hold a secret, else the scores)."""
    texts = getattr(renderer, "score_texts", None)
    if texts is not None:
        return [str(t) for t in texts(state, seat)]
    return [f"{score:g}" for score in state.scores()]


def result_line(state: State, players: list[str]) -> str:
    winners = state.winners()
    if len(winners) == 1:
        verdict = f"{players[winners[0]]} wins"
    else:
        verdict = " and ".join(players[s] for s in winners) + " share the win"
    scores = ", ".join(f"P{s} {x:g}" for s, x in enumerate(state.scores()))
    lowest = " (lowest score wins)" if state.rules.lower_score_wins else ""
    return f"{verdict}: {scores}{lowest}"


def _player_label(table: Table, s: int, seat: int) -> str:
    who = table.seats[s].player
    return f"P{s} (you)" if s == seat else f"P{s} ({who})"


def _log_lines(log: list[dict[str, Any]], seat: int, players: list[str]) -> list[str]:
    lines = []
    for entry in log:
        lines.append(f"{players[entry['seat']]}: {entry['seen'][seat]}")
        lines.extend(entry["after"][seat])
    return lines


# -- where to click ----------------------------------------------------------------------
def click_targets(
    state: State, seat: int, draw: Callable[[State, int], np.ndarray]
) -> list[dict[str, Any]]:
    """The places of ``seat``'s picture that stand for its legal moves:
    ``[{"box": [x, y, width, height], "actions": [...]}, ...]`` (see the module). A place
    that every legal move changes, or more than half of them (and more than 4), stands for
    no move in particular and is left out; the list of legal moves has them all."""
    legal = [int(a) for a in state.legal_actions()]
    if len(legal) < 2:
        return []
    position = _seat_position(state, seat)
    if sorted(int(a) for a in position.legal_actions()) != sorted(legal):
        return []
    before = draw(position, seat)
    changed: list[tuple[list[int], np.ndarray]] = []
    count = np.zeros(before.shape[:2], dtype=np.int32)

    def mask_after(action: int) -> np.ndarray | None:
        after_state = position.clone()
        after_state.apply(action)
        after = draw(after_state, seat)
        if after.shape != before.shape:
            return None
        differs = before != after
        return differs[..., 0] | differs[..., 1] | differs[..., 2]

    for group in _alike_moves(position, seat, legal):
        first = mask_after(group[0])
        parts = [(group, first)]
        if len(group) > 1:
            # a second move of the group drawn too: where it changes other places than the
            # first (a follower on another feature of one cell), each move is drawn
            second = mask_after(group[1])
            if second is not None and first is not None:
                if not _same_places(first, second):
                    parts = [([group[0]], first), ([group[1]], second)]
                    parts += [([action], mask_after(action)) for action in group[2:]]
        for part, mask in parts:
            if mask is None:
                return []
            count += mask * len(part)
            changed.append((part, mask))
    common = count == len(legal)
    boxes: dict[tuple[int, int, int, int], set[int]] = {}
    for group, mask in changed:
        for box in _boxes(mask & ~common):
            boxes.setdefault(box, set()).update(group)
    limit = max(4, len(legal) // 2)
    targets = []
    for box, actions in _merge_overlapping(boxes):
        if len(actions) == len(legal) or len(actions) > limit:
            continue
        box = _at_least(box, MIN_TARGET, before.shape[1], before.shape[0])
        targets.append({"box": list(box), "actions": sorted(actions)})
    return targets


def _same_places(first: np.ndarray, second: np.ndarray) -> bool:
    """Whether two masks of changed pixels change the same places: what each changes and
    the other does not, in as many rectangles, each overlapping the other's by at least
    half (a tile drawn in another rotation on the same cell, not a mark in another corner
    of it)."""
    first, second = first & ~second, second & ~first
    a, b = (
        [box for box, _ in _merge_overlapping({box: set() for box in _boxes(mask)})]
        for mask in (first, second)
    )
    if len(a) != len(b):
        return False
    return all(any(_overlap(x, y) >= 0.5 for y in b) for x in a)


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> float:
    """The area two rectangles share over the area of the larger one."""
    width = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    height = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    if width <= 0 or height <= 0:
        return 0.0
    return width * height / max(a[2] * a[3], b[2] * b[3])


def _alike_moves(state: State, seat: int, legal: list[int]) -> list[list[int]]:
    """``legal`` in groups of moves that change the same places of the board, each group
    drawn once (its first move) for where to click: for a game whose observation has
    spatial planes (``rules.planes_shape``), the moves that change the same cells of the
    seat's planes (a tile in four rotations on one cell); every other move alone."""
    shape = state.rules.planes_shape
    if shape is None:
        return [[a] for a in legal]
    size = int(np.prod(shape))
    before = state.observation(seat)[:size].reshape(shape)
    groups: dict[bytes, list[int]] = {}
    alone: list[list[int]] = []
    for action in legal:
        after_state = state.clone()
        after_state.apply(action)
        after = after_state.observation(seat)[:size].reshape(shape)
        cells = np.flatnonzero((before != after).any(axis=0))
        if cells.size:
            groups.setdefault(cells.tobytes(), []).append(action)
        else:
            alone.append([action])
    return [*groups.values(), *alone]


def _seat_position(state: State, seat: int) -> State:
    """A position the seat cannot tell from ``state``: drawn by the game's determinizer
    from the seat's view with a fixed seed (the same view, the same position), or the state
    itself for a game without one."""
    try:
        return state.rules.sample_state(state.view(seat), np.random.default_rng(0))
    except NotImplementedError:
        return state.clone()


def _boxes(mask: np.ndarray) -> list[tuple[int, int, int, int]]:
    """The rectangles covering ``mask``, runs broken by more than ``TARGET_GAP`` pixels."""
    return mask_boxes(mask, TARGET_GAP, TARGET_GAP)


def _merge_overlapping(
    boxes: dict[tuple[int, int, int, int], set[int]],
) -> list[tuple[tuple[int, int, int, int], set[int]]]:
    """Boxes that overlap as one box, the bounding box, with all their moves."""
    groups = [(box, set(actions)) for box, actions in boxes.items()]
    merged = True
    while merged:
        merged = False
        out: list[tuple[tuple[int, int, int, int], set[int]]] = []
        for box, actions in groups:
            for i, (other, other_actions) in enumerate(out):
                if _touch(box, other):
                    out[i] = (_union(box, other), other_actions | actions)
                    merged = True
                    break
            else:
                out.append((box, actions))
        groups = out
    return groups


def _touch(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


def _union(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    x0, y0 = min(a[0], b[0]), min(a[1], b[1])
    x1, y1 = max(a[0] + a[2], b[0] + b[2]), max(a[1] + a[3], b[1] + b[3])
    return (x0, y0, x1 - x0, y1 - y0)


def _at_least(
    box: tuple[int, int, int, int], size: int, width: int, height: int
) -> tuple[int, int, int, int]:
    x, y, w, h = box
    if w < size:
        x, w = max(0, x - (size - w) // 2), size
    if h < size:
        y, h = max(0, y - (size - h) // 2), size
    return (x, y, min(w, width - x), min(h, height - y))
