"""The fast encoder against a plain one written from the encoding docstring, and its caches.

``encode`` keeps a float32 buffer per board, repainted where the cubes, tokens, Haumea or the
placement positions changed, and joins memoised byte pieces for the vector (see the speed
section of docs/games/tahiti.md). ``reference_encode`` below follows the tables of
:mod:`boardgame_envs.tahiti.encoding` one entry at a time, with no cache at all; the two must
agree bit for bit at every step, for every seat, whatever order states are encoded in.
Scaled entries are ``float32(count) * float32(1 / divisor)`` (the encoder's convention since v0).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import boardgame_envs
from boardgame_envs.tahiti import encoding as enc
from boardgame_envs.tahiti.data import (
    CANOE_CAPACITY,
    CUBES_PER_KIND,
    FISHING,
    GRID_RADIUS,
    HOME,
    ISLAND_SLOTS,
    ISLANDS,
    NUM_GOODS,
    PLAIN,
    TOKEN_COUNTS,
    TOTAL_CUBES,
    WATERS,
)
from boardgame_envs.tahiti.rules import CELL_QR, NEIGHBOURS, NUM_CELLS, PHASES, PLACE, View
from tests.tahiti.helpers import ENGINES, engine_rules, reference

RULES = boardgame_envs.make_rules("tahiti", engine="python")
V = enc.VECTOR
#: The native engine's positions are encoded at every NATIVE_EVERY-th step here.
NATIVE_EVERY = 5


def _scaled(count: int, divisor: int) -> np.float32:
    return np.float32(count) * np.float32(1 / divisor)


def reference_encode(view: View) -> np.ndarray:
    """The observation of ``view.seat``, entry by entry from the module tables."""
    obs = np.zeros(enc.OBSERVATION_SIZE, dtype=np.float32)
    n, seat = view.num_players, view.seat

    def plane(p: int, cell: int) -> int:
        return p * NUM_CELLS + cell

    def placed(cell: int) -> bool:
        return cell >= 0 and view.cell_tile[cell] >= 0

    for cell, (q, r) in enumerate(CELL_QR):
        if max(abs(q), abs(r), abs(q + r)) <= GRID_RADIUS:
            obs[plane(0, cell)] = 1  # valid
    for tile, cell in enumerate(view.tile_cell):
        if cell < 0:
            continue
        obs[plane(1, cell)] = 1
        kind = 2 if tile == HOME else 3 if tile in WATERS else 4
        obs[plane(kind, cell)] = 1
        for d in range(6):
            if view.reefs[tile] >> d & 1:
                obs[plane(15 + d, cell)] = 1
        if not all(placed(nb) for nb in NEIGHBOURS[cell]):
            obs[plane(22, cell)] = 1  # edge tile
        if tile in ISLANDS:
            base = V + 94 + 13 * (tile - 1)
            q, r = CELL_QR[cell]
            obs[base], obs[base + 1], obs[base + 2] = 1, q / GRID_RADIUS, r / GRID_RADIUS
            for s, crop in enumerate(ISLAND_SLOTS[tile]):
                obs[plane(5 + crop, cell)] = obs[base + 3 + crop] = 1
                if view.island_cubes[tile] >> s & 1:
                    obs[plane(9 + crop, cell)] = obs[base + 7 + crop] = 1
            token = view.tokens[tile]
            if token:
                obs[plane(13, cell)] = obs[base + 11] = 1
            if token == FISHING:
                obs[plane(14, cell)] = obs[base + 12] = 1
    if view.haumea >= 0:
        obs[plane(21, view.haumea)] = 1
        obs[V + 19] = 1
        if view.phase == PLACE:
            for p in NEIGHBOURS[view.haumea]:
                if p >= 0 and not placed(p) and sum(map(placed, NEIGHBOURS[p])) >= 2:
                    obs[plane(23, p)] = 1
    for rel in range(n):
        s = (seat + rel) % n
        obs[plane(24 + rel, view.canoes[s])] = 1
        for g in range(NUM_GOODS):
            obs[V + 342 + 5 * rel + g] = _scaled(view.cargo[s][g], CANOE_CAPACITY)
            obs[V + 362 + 5 * rel + g] = _scaled(view.charts[s][g], CUBES_PER_KIND)

    obs[V + PHASES.index(view.phase)] = 1
    obs[V + 8 + n - 2] = 1
    obs[V + 11 + (view.first_player - seat) % n] = 1
    live = view.current_player >= 0
    if live:
        obs[V + 15 + (view.turn_player - seat) % n] = 1
    obs[V + 20] = _scaled(view.stack_sizes[0], 8)
    obs[V + 21] = _scaled(view.stack_sizes[1], 8)
    for i, top in enumerate(view.stack_tops):
        if top:
            obs[V + 22 + 18 * i + top - 1] = 1
    if view.hand_tile:
        obs[V + 58 + view.hand_tile - 1] = 1
    for k in view.unplaced:
        obs[V + 76 + k - 1] = 1
    if view.bounty:
        obs[V + 328 + view.bounty[0]] = 1
        for g in range(NUM_GOODS):
            obs[V + 333 + g] = _scaled(view.bounty[1:].count(g), 2)
    if view.revealed_token:
        obs[V + 338 + view.revealed_token - 1] = 1
    if live:
        obs[V + 340] = _scaled(view.taken, 4)
        obs[V + 341] = _scaled(view.paddles, 4)
    obs[V + 382 + view.favourite - 1] = 1
    for g in range(NUM_GOODS):
        obs[V + 389 + g] = _scaled(view.bag[g], CUBES_PER_KIND)
    obs[V + 394] = _scaled(sum(view.bag), TOTAL_CUBES)
    obs[V + 395] = _scaled(view.tokens_left[0], TOKEN_COUNTS[PLAIN])
    obs[V + 396] = _scaled(view.tokens_left[1], TOKEN_COUNTS[FISHING])
    obs[V + 397] = float(view.end_triggered)
    obs[V + 398] = _scaled(view.turns_left, 3)
    return obs


def _games(n: int, games: int, seed: int, rules=RULES):
    """States along seeded uniformly random games (each state yielded before its move)."""
    for g in range(games):
        rng = np.random.default_rng(seed + g)
        state = rules.new_state(n, seed=seed + g)
        while True:
            yield state
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("n, games", [(2, 2), (3, 1), (4, 1)])
def test_encode_equals_reference_at_every_step(n: int, games: int, engine: str) -> None:
    phases = set()
    for i, state in enumerate(_games(n, games, seed=100 * n, rules=engine_rules(engine))):
        phases.add(state._phase_name())
        if engine == "native" and i % NATIVE_EVERY:
            continue  # the native engine: every few steps (tests/native checks every one)
        for seat in range(n):
            view = state.view(seat)
            got = view.observation()
            assert _same(got, reference_encode(view)), (n, seat, state.phase)
    # every common decision type was met (HAUMEA_STEP is rare in random play)
    assert set(PHASES) - {"HAUMEA_STEP"} <= phases


@pytest.mark.parametrize("engine", ENGINES)
def test_observation_is_fresh_and_writable(engine: str) -> None:
    state = engine_rules(engine).new_state(3, seed=5)
    first = state.view(0).observation()
    assert first.flags.writeable
    expected = first.copy()
    first[:] = 7.0  # a caller may write into its observation: nothing cached may change
    again = state.view(0).observation()
    assert _same(again, expected) and _same(again, reference_encode(state.view(0)))


@pytest.mark.parametrize("engine", ENGINES)
def test_interleaved_states_repaint_the_shared_board_buffer(engine: str) -> None:
    """Clones share the board tuples, so they share one buffer; encoding them in turns, as
    a search does, must repaint it each time to the state encoded."""
    for n in (2, 4):
        rng = np.random.default_rng(n)
        base = engine_rules(engine).new_state(n, seed=40 + n)
        for _ in range(25):
            legal = base.legal_actions()
            base.apply(legal[rng.integers(len(legal))])
        branches = [base.clone() for _ in range(3)]
        for step in range(120):
            for i, state in enumerate(branches):
                if not state.is_terminal() and (step + i) % (i + 1) == 0:
                    legal = state.legal_actions()
                    state.apply(legal[rng.integers(len(legal))])
            for state in (*branches, base):
                view = state.view(step % n)
                assert _same(view.observation(), reference_encode(view))


@pytest.mark.parametrize("engine", ENGINES)
def test_clone_and_json_reload_encode_the_same(engine: str) -> None:
    rules = engine_rules(engine)
    for n in (2, 3, 4):
        rng = np.random.default_rng(n)
        state = rules.new_state(n, seed=70 + n)
        for step in range(400):
            if state.is_terminal():
                break
            if step % 37 == 0:
                clone, loaded = state.clone(), rules.from_json(state.to_json())
                for seat in range(n):
                    want = state.view(seat).observation()
                    assert _same(clone.view(seat).observation(), want)
                    assert _same(loaded.view(seat).observation(), want)
                    assert _same(loaded.view(seat).legal_action_mask(), state.view(seat).mask)
                # the three continue identically, each encoding from its own caches
                for other in (clone, loaded):
                    for _ in range(5):
                        if other.is_terminal():
                            break
                        other.apply(other.legal_actions()[0])
                if not clone.is_terminal():
                    assert _same(clone.view(0).observation(), loaded.view(0).observation())
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])


@pytest.mark.parametrize("engine", ENGINES)
def test_view_caches_follow_the_state(engine: str) -> None:
    """The view's memoised pieces (stacks, tokens, charts) equal the state's own facts at
    every step, also after clone and reload (a native state's facts read from its Python
    copy)."""
    for n in (2, 4):
        for i, live in enumerate(_games(n, 1, seed=300 + n, rules=engine_rules(engine))):
            if engine == "native" and i % NATIVE_EVERY and not live.is_terminal():
                continue
            state = reference(live)
            for seat in range(n):
                view = live.view(seat)
                a, b = state.stacks
                pile = state.token_pile
                expected = {
                    "seat": seat,
                    "phase": state.phase,
                    "current_player": state.current_player,
                    "stack_sizes": (len(a), len(b)),
                    "stack_tops": (a[0] if a else 0, b[0] if b else 0),
                    "unplaced": frozenset(a + b),
                    "tokens_left": (pile.count(PLAIN), pile.count(FISHING)),
                    "charts": tuple(map(tuple, state.charts)),
                    "cargo": tuple(map(tuple, state.cargo)),
                    "bag": tuple(state.bag),
                    "canoes": tuple(state.canoes),
                    "bounty": tuple(state.bounty),
                    "aside": tuple(state.aside),
                    "favourite": state.favourites[seat],
                    "turns_left": state.turns_left(),
                    "round": state.round,
                    "last_event": state.last_event,
                    "truncated": state.truncated,
                    "max_rounds": state.config["max_rounds"],
                }
                got = {name: getattr(view, name) for name in expected}
                assert got == expected
                assert bool(view.mask.any()) == (seat == state.current_player)
                for field in dataclasses.fields(View):  # every field is set
                    getattr(view, field.name)
