"""Tahiti: determinization, a full state drawn from what one seat knows (spec §7).

:func:`sample_state` rebuilds a :class:`~.rules.State` from a :class:`~.rules.View` alone.
Everything on the map, the cargo, the charts, the bag's counts, the stack tops and sizes, the
set of islands still in the stacks, the composition of the depletion pile and the seat's own
favourite tile are public to the seat and copied as they are. What it cannot see is drawn from
``rng``, each part uniformly and independently of the others (a plain deal of the unseen
components into the unseen places, no inference from the other seats' past moves):

* the other seats' favourite tiles: the player count's set minus the seat's own tile, dealt
  at random to the other seats in seat order; the rest (2 players: one tile) is unused;
* the order of each stack below its visible top: the islands still in the stacks minus the two
  tops, shuffled and dealt to stack A's lower part, then stack B's;
* the order of the face-down depletion tokens: a shuffle of the known composition;
* the bag's future draws: a new generator (PCG64) whose state and increment are 256 bits
  drawn from ``rng``.

Built field by field rather than through ``State.__init__``, which would recompute the board
caches the view already holds (the tuples the view shares are immutable, so the sample shares
them too; every list it holds is its own).
"""

from __future__ import annotations

import numpy as np
from numpy.random.bit_generator import ISeedSequence

from boardgame_envs.tahiti.data import (
    CUBES_REMOVED_PER_KIND,
    FAVOURITE_SETS,
    FISHING,
    PLAIN,
)
from boardgame_envs.tahiti.rules import NEIGHBOURS, State, TahitiRules, View

#: ``_open_dirs`` memo: id of a view's ``cell_tile`` tuple -> (that tuple, its open directions).
_OPEN_DIRS: dict[int, tuple[tuple[int, ...], dict[int, list[int]]]] = {}


def sample_state(rules: TahitiRules, view: View, rng: np.random.Generator) -> State:
    """A full state consistent with ``view``, its hidden parts drawn from ``rng``."""
    n = view.num_players
    seat = view.seat
    own = view.favourite
    top_a, top_b = view.stack_tops
    size_a, size_b = view.stack_sizes
    below = sorted(k for k in view.unplaced if k != top_a and k != top_b)
    others = [f for f in FAVOURITE_SETS[n] if f != own]
    plain, fishing = view.tokens_left
    # One call for every shuffle: each part is sorted by its own slice of uniform keys.
    keys = rng.random(len(below) + len(others) + plain + fishing).tolist()
    m = len(below)
    below = [k for _, k in sorted(zip(keys[:m], below))]
    m2 = m + len(others)
    others = [f for _, f in sorted(zip(keys[m:m2], others))]
    pile = [PLAIN] * plain + [FISHING] * fishing
    pile = [t for _, t in sorted(zip(keys[m2:], pile))]

    state = object.__new__(State)
    attrs = state.__dict__
    attrs["rules"] = rules
    attrs["num_players"] = n
    attrs["config"] = {"max_rounds": view.max_rounds}
    attrs["rng"] = _generator(rng)
    attrs["side"] = view.side
    attrs["removed"] = CUBES_REMOVED_PER_KIND[n]
    attrs["tile_cell"] = list(view.tile_cell)
    attrs["rotation"] = list(view.rotation)
    attrs["island_cubes"] = view.island_cubes
    attrs["tokens"] = view.tokens
    split = size_a - 1 if size_a else 0
    attrs["stacks"] = [
        [top_a, *below[:split]] if size_a else [],
        [top_b, *below[split:]] if size_b else [],
    ]
    attrs["token_pile"] = pile
    favourites = [own] * n
    deal = iter(others)
    for s in range(n):
        if s != seat:
            favourites[s] = next(deal)
    attrs["favourites"] = favourites
    attrs["unused_favourites"] = list(deal)
    attrs["haumea"] = view.haumea
    attrs["bag"] = list(view.bag)
    attrs["canoes"] = list(view.canoes)
    attrs["cargo"] = [list(c) for c in view.cargo]
    attrs["charts"] = [list(c) for c in view.charts]
    attrs["first_player"] = view.first_player
    attrs["turn_player"] = view.turn_player
    attrs["round"] = view.round
    attrs["phase"] = view.phase
    attrs["taken"] = view.taken
    attrs["hand_tile"] = view.hand_tile
    attrs["bounty"] = list(view.bounty)
    attrs["aside"] = list(view.aside)
    attrs["revealed_token"] = view.revealed_token
    attrs["end_triggered"] = view.end_triggered
    attrs["truncated"] = view.truncated
    attrs["last_event"] = view.last_event
    attrs["_rng_shared"] = False
    # the private caches (``State._rebuild``), from the view's own immutable copies
    cell_tile = view.cell_tile
    attrs["cell_tile"] = list(cell_tile)
    attrs["reefs"] = list(view.reefs)
    attrs["edge_cells"] = view.edge_cells
    attrs["_board"] = (view.tile_cell, view.rotation, view.reefs)
    attrs["_cell_tile"] = cell_tile
    attrs["_open_dirs"] = _open_dirs(cell_tile)
    attrs["_mask"] = None
    attrs["_piles"] = None  # what views show of the stacks and pile: made on first use
    attrs["_cargo_view"] = attrs["_charts_view"] = None
    return state


def _generator(rng: np.random.Generator) -> np.random.Generator:
    """A PCG64 generator seeded with 256 bits drawn from ``rng`` (its 128-bit state and
    increment), without the hashing of a ``SeedSequence``."""
    return np.random.Generator(np.random.PCG64(_Words(rng.bit_generator.random_raw(4))))


class _Words(ISeedSequence):
    """A seed sequence that hands over words already drawn at random (numpy's documented
    interface for seed sequences: any object with ``generate_state``)."""

    __slots__ = ("words",)

    def __init__(self, words: np.ndarray) -> None:
        self.words = words

    def generate_state(self, n_words: int, dtype: type = np.uint32) -> np.ndarray:
        words = self.words.view(np.uint32) if np.dtype(dtype) == np.uint32 else self.words
        return words[:n_words].copy()


def _open_dirs(cell_tile: tuple[int, ...]) -> dict[int, list[int]]:
    """``State._open_dirs`` of this board: per placed cell, the directions of its placed
    neighbours. Memoised by the identity of the view's ``cell_tile`` tuple (the state replaces
    it whenever a tile is placed, as the encoding's caches also rely on), so every sample of
    one view shares one read-only dict, as clones of one state do."""
    entry = _OPEN_DIRS.get(id(cell_tile))
    if entry is not None and entry[0] is cell_tile:
        return entry[1]
    open_dirs = {
        cell: [d for d, nb in enumerate(NEIGHBOURS[cell]) if nb >= 0 and cell_tile[nb] >= 0]
        for cell, tile in enumerate(cell_tile)
        if tile >= 0
    }
    if len(_OPEN_DIRS) >= 256:
        _OPEN_DIRS.clear()
    _OPEN_DIRS[id(cell_tile)] = (cell_tile, open_dirs)  # holds the tuple: its id stays unique
    return open_dirs
