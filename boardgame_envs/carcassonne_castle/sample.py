"""Determinization: a full state drawn from what one seat knows (spec §7).

Nothing in this game belongs to one player only; what nobody sees is

* the **order** of the draw stack (its composition is public: ``view.stack_counts``, the
  60 tiles minus the castle, the discards and the drawn tile), and
* the **kinds** of the face-down wall tiles: one on each stocked corner tower
  (``view.stocked``) and the 5 in the box. The unseen kinds are the 18 wall tiles (2 of
  each of kinds 1-9) minus those held and those used, all public.

:func:`sample_state` deals them uniformly: a shuffle of the stack's tiles, and a shuffle of
the unseen wall tiles, the first ``len(stocked)`` of which go on the stocked corners in
corner order and the rest into the box. Both shuffles come from one draw of ``rng``: a
uniform key per tile, the wall tiles' keys raised by 1, and one ``argsort`` (i.i.d. keys
rank uniformly, so each pool is uniformly permuted; one numpy call instead of two
``permutation`` calls is most of the saving). Every other fact is copied from the view.

Speed. An ISMCTS agent draws one sample per iteration, hundreds per view. The first call
on a view lays the view's facts out as a private *template* state (holding no hidden
fact: an empty stack, ``-1`` on the stocked corners) and keeps it on the view; every
sample is a ``clone()`` of that template plus the two shuffles. The template's castle is
a copy of the view's board made once: the view's ``castle`` is the original state's live
board, which that state changes in place on its next move, so it is never shared; the
copy is shared by the samples copy-on-write, as clones share theirs (a sample copies it
before its first change), so no sample can change another, the view or the original.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from boardgame_envs.carcassonne_castle.data import NUM_TILE_TYPES, WALL_TILES

if TYPE_CHECKING:
    from boardgame_envs.carcassonne_castle.rules import CarcassonneCastleRules, State, View

#: copies of each wall-tile kind (index = kind, 1-9; index 0 unused)
WALL_COPIES: tuple[int, ...] = tuple(WALL_TILES.count(k) for k in range(10))
#: the kind on a stocked corner of the template: not yet drawn
UNKNOWN_KIND = -1
TILE_TYPE_IDS = np.arange(NUM_TILE_TYPES, dtype=np.int64)


def sample_state(rules: CarcassonneCastleRules, view: View, rng: np.random.Generator) -> State:
    """A state consistent with ``view``, the stack order and the face-down wall tiles drawn
    from ``rng`` (the stack first, then the wall tiles): see the module docstring."""
    cache = view._sample_cache
    if cache is None or cache[0] is not rules:
        cache = view._sample_cache = _template(rules, view)
    _, template, pool, raise_walls, size, stocked = cache
    sample = template.clone()
    keys = rng.random(len(pool))
    keys += raise_walls
    dealt = pool[keys.argsort()].tolist()  # the stack in a random order, then the walls
    sample.stack = dealt[:size]
    corners = sample.corners  # the clone's own copy of the template's corners
    for corner, kind in zip(stocked, dealt[size:]):
        corners[corner] = kind
    sample.boxed = dealt[size + len(stocked) :]
    return sample


def _template(
    rules: CarcassonneCastleRules, view: View
) -> tuple[CarcassonneCastleRules, State, np.ndarray, np.ndarray, int, tuple[int, ...]]:
    """The view's public facts as a state with nothing hidden in it, and what the samples
    deal: the stack's tiles then the unseen wall-tile kinds (one array), 0 for each tile
    and 1 for each wall tile (the raise of their keys), the stack's size, the stocked
    corners."""
    from boardgame_envs.carcassonne_castle.rules import State

    counts = view.stack_counts
    if len(counts) != NUM_TILE_TYPES or sum(counts) != view.stack_size:
        raise ValueError(
            f"the view's stack composition ({sum(counts)} tiles) does not match its stack "
            f"size {view.stack_size}"
        )
    unseen = list(WALL_COPIES)
    for kinds in (*view.held, view.used):
        for kind in kinds:
            unseen[kind] -= 1
    wall_pool = [k for k in range(1, 10) for _ in range(unseen[k])]
    stocked = tuple(i for i, full in enumerate(view.stocked) if full)
    if len(wall_pool) < len(stocked) or min(unseen) < 0:
        raise ValueError(
            f"the view shows {len(stocked)} stocked corners but only {len(wall_pool)} unseen "
            "wall tiles"
        )

    record = view.record
    state = State(rules, dict(record.config))
    state.castle = view.castle.clone()  # never the original's live board (module docstring)
    state._castle_shared = True  # samples copy it before their first change
    state.stack = []
    state.unseen = list(counts)
    state.tile = view.tile
    state.discards = list(view.discards)
    state.corners = [UNKNOWN_KIND if full else 0 for full in view.stocked]
    state.boxed = []
    state.held = [[[kind, turn] for kind, turn in seat] for seat in record.taken]
    state.used = [[kind, seat] for kind, seat in record.used_by]
    state.scores_ = list(view.scores)
    state.supply = list(view.supply)
    state.keeps = [None if k is None else [k[0], list(k[1])] for k in view.keeps]
    state.start_player = record.start_player
    state.active = view.active
    state.turn = view.turn
    state.extra_turn = view.extra_turn
    state.phase = view.phase
    state.last_cell = view.last_cell
    state.completed = list(view.completed)
    state.groups = [list(group) for group in view.groups]
    state.doubling = view.doubling
    state.final = [[[label, points] for label, points in seat] for seat in record.final]
    state.events = list(view.events)
    if view.seat == view.current_player:
        # the mover's mask is in the view: a read-only copy, shared by the clones (as
        # clones share the state's); otherwise it is computed on first use
        mask = np.array(view.mask, dtype=bool)
        mask.flags.writeable = False
        state._mask = mask
    state._public_fields()  # immutable tuples, shared by the clones (stocked: -1 is True)
    size = view.stack_size
    pool = np.concatenate((np.repeat(TILE_TYPE_IDS, counts), np.array(wall_pool, np.int64)))
    raise_walls = np.concatenate((np.zeros(size), np.ones(len(wall_pool))))
    return rules, state, pool, raise_walls, size, stocked
