"""Builders for Tahiti positions written the way the spec writes them (§10)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from boardgame_envs import make_rules
from boardgame_envs.core.native import native_games
from boardgame_envs.core.rules import State as BaseState
from boardgame_envs.tahiti.data import (
    CUBES_PER_KIND,
    CUBES_REMOVED_PER_KIND,
    FAVOURITE_SETS,
    GOODS_LETTERS,
    GOODS_NAMES,
    ISLAND_SLOTS,
    ISLANDS,
    NUM_GOODS,
    TILE_IDS,
    TOKEN_COUNTS,
    TOKEN_NAMES,
    tile_name,
)
from boardgame_envs.tahiti.rules import State

RULES = make_rules("tahiti", engine="python")  # the reference: tests edit its fields
#: The compiled engine, where it is built (None elsewhere).
HAS_NATIVE = "tahiti" in native_games()
NATIVE = make_rules("tahiti", engine="native") if HAS_NATIVE else None
#: ``@pytest.mark.parametrize("engine", ENGINES)``: a test of the contract on both engines.
ENGINES = [
    "python",
    pytest.param(
        "native", marks=pytest.mark.skipif(not HAS_NATIVE, reason="no native tahiti engine")
    ),
]


def engine_rules(engine: str):
    """The Rules of ``engine`` ("python" or "native")."""
    return RULES if engine == "python" else NATIVE


def reference(state: BaseState) -> State:
    """The Python engine's copy of a position (a native one is converted through its
    snapshot), for tests that read the engine's fields."""
    return state if isinstance(state, State) else state.to_reference()


def on_reference(invariants, every: int = 1):
    """The invariants, checked on the Python copy of a native state (made once per check,
    at every ``every``-th call: a copy costs a snapshot), with the native scores held to the
    copy's."""
    calls = [0]

    def reference_invariants(state: BaseState) -> None:
        calls[0] += 1
        if (calls[0] - 1) % every and not state.is_terminal():
            return
        ref = reference(state)
        for invariant in invariants:
            invariant(ref)
        assert state.scores() == ref.scores()

    return (reference_invariants,)


#: The positions ``position`` built in the running test: id -> (the state, its first snapshot,
#: the actions played on it); conftest.py records the actions and replays them natively.
RECORDED: dict[int, tuple[State, dict[str, Any], list[int]]] = {}


def replay_natively(start: dict[str, Any], actions: list[int]) -> None:
    """A constructed scenario on both engines in lockstep: from its first position, every
    action the test played, with every view and observation compared at every step. Where a
    test scripted the draws, the unscripted engines draw from the snapshot's generator and
    may part from the test's course; the replay stops at the first action that is then
    illegal (both engines agree on that too)."""
    from tests.native.lockstep import assert_same_position

    python = RULES.from_dict(start)
    native = NATIVE.from_dict(start)
    for action in actions:
        assert_same_position(python, native)
        if python.is_terminal() or not python.legal_action_mask()[action]:
            return
        python.apply(action)
        native.apply(action)
    assert_same_position(python, native)


GOODS = {name: g for g, name in enumerate(GOODS_NAMES)}

#: Ring-2 and ring-3 cells (axial) to park extra islands of a "full board" on.
PARKING = [
    (2, -2),
    (2, -1),
    (2, 0),
    (1, 1),
    (0, 2),
    (-1, 2),
    (-2, 2),
    (-2, 1),
    (-2, 0),
    (-1, -1),
    (0, -2),
    (1, -2),
    (3, -3),
    (3, -2),
    (3, -1),
    (3, 0),
]


def goods(*names: str) -> list[int]:
    """Counts per kind from goods names: ``goods("banana", "banana", "fish")``."""
    counts = [0] * NUM_GOODS
    for name in names:
        counts[GOODS[name]] += 1
    return counts


def position(
    n: int = 4,
    tiles: Iterable[tuple[str, int, int, int]] = (),
    full_board: bool = False,
    leave_out: Iterable[str] = (),
    cubes: dict[str, str] | None = None,
    tokens: dict[str, str] | None = None,
    haumea: tuple[int, int] | None = (0, 0),
    stacks: tuple[list[str], list[str]] | None = None,
    canoes: dict[int, tuple[int, int]] | None = None,
    cargo: dict[int, list[int]] | None = None,
    charts: dict[int, list[int]] | None = None,
    favourites: list[str] | None = None,
    bag: list[int] | None = None,
    token_pile: list[str] | None = None,
    turn: int = 0,
    first: int = 0,
    phase: str = "ACTION",
    **fields: Any,
) -> State:
    """A position built on the §3 layout for ``n`` players, through a JSON snapshot.

    ``tiles``: extra tiles ``(name, q, r, rotation)``; ``full_board`` parks every other island
    on ring 2/3 (rotation 0) except those in ``leave_out``. ``cubes``: {island: "CB"} replaces
    the starting cubes (None keeps them). ``stacks`` default: the islands not on the table, in
    id order, split A then B.
    ``bag`` default: every cube not placed elsewhere. ``token_pile`` default: the tokens not on
    islands, plain first. Other snapshot fields (``taken``, ``bounty``…) go in ``fields``.
    """
    data = RULES.new_state(n, seed=0).to_dict()
    board = data["board"] + [list(t) for t in tiles]
    if full_board:
        used = {name for name, *_ in board} | set(leave_out)
        free = [p for p in PARKING if [p[0], p[1]] not in [b[1:3] for b in board]]
        for k in ISLANDS:
            if tile_name(k) not in used:
                q, r = free.pop(0)
                board.append([tile_name(k), q, r, 0])
    data["board"] = board
    on_table = {name for name, *_ in board}
    if cubes is not None:
        data["island_cubes"] = {k: v for k, v in cubes.items() if v}
    data["tokens"] = dict(tokens or {})
    data["haumea"] = None if haumea is None else list(haumea)
    hand = fields.get("hand_tile")
    if stacks is None:
        rest = [tile_name(k) for k in ISLANDS if tile_name(k) not in on_table | {hand}]
        split = (len(rest) + 1) // 2
        stacks = (rest[:split], rest[split:])
    data["stacks"] = [list(stacks[0]), list(stacks[1])]
    data["canoes"] = [list((canoes or {}).get(s, (0, 0))) for s in range(n)]
    data["cargo"] = [list((cargo or {}).get(s, [0] * NUM_GOODS)) for s in range(n)]
    data["charts"] = [list((charts or {}).get(s, [0] * NUM_GOODS)) for s in range(n)]
    if favourites is None:
        fav = [f"F{f}" for f in FAVOURITE_SETS[n]]
        favourites = fav[:n]
    data["favourites"] = list(favourites)
    data["unused_favourites"] = [f"F{f}" for f in FAVOURITE_SETS[n] if f"F{f}" not in favourites]
    placed_tokens = list(data["tokens"].values())
    if token_pile is None:
        token_pile = []
        for kind, count in TOKEN_COUNTS.items():
            name = TOKEN_NAMES[kind]
            left = count - placed_tokens.count(name) - (fields.get("revealed_token") == name)
            token_pile += [name] * left
    data["token_pile"] = list(token_pile)
    data.update(turn_player=turn, first_player=first, phase=phase, taken=0)
    data.update(fields)
    if bag is None:
        bag = balanced_bag(data, n)
    data["bag"] = list(bag)
    state = RULES.from_dict(data)
    RECORDED[id(state)] = (state, state.to_dict(), [])
    return state


def balanced_bag(data: dict[str, Any], n: int) -> list[int]:
    """Every cube in play that the snapshot does not put anywhere else."""
    counts = [CUBES_PER_KIND - CUBES_REMOVED_PER_KIND[n]] * NUM_GOODS
    letters = {letter: g for g, letter in enumerate(GOODS_LETTERS)}
    for text in data["island_cubes"].values():
        for letter in text:
            counts[letters[letter]] -= 1
    for seat_counts in data["cargo"] + data["charts"] + [data["aside"]]:
        for g in range(NUM_GOODS):
            counts[g] -= seat_counts[g]
    for name in data["bounty"]:
        counts[GOODS[name]] -= 1
    if min(counts) < 0:
        raise ValueError(f"the position uses more cubes than there are: bag would be {counts}")
    return counts


def script_draws(state: State, *draws: Iterable[str]) -> list:
    """Make the next bag draws of ``state`` give exactly these cubes, one list per draw event
    (a bounty, a reef check, a fishing draw). Returns the list of scripts still unused, so that
    a test can check that every scripted draw happened."""
    pending = [[GOODS[name] for name in draw] for draw in draws]

    def draw(count: int) -> list[int]:
        if not pending:
            raise AssertionError(f"an unscripted draw of {count} cubes")
        kinds = pending.pop(0)
        if len(kinds) != min(count, sum(state.bag)):
            raise AssertionError(f"scripted {len(kinds)} cubes for a draw of {count}")
        for g in kinds:
            if state.bag[g] <= 0:
                raise AssertionError(f"scripted a {GOODS_NAMES[g]} the bag does not hold")
            state.bag[g] -= 1
        return list(kinds)

    state._draw = draw  # an instance attribute: only this state is scripted
    return pending


def island(name: str) -> int:
    return TILE_IDS[name]


def island_action(name: str) -> int:
    """The bounty / depletion action of island ``name`` (44 + k)."""
    return 44 + TILE_IDS[name]


def cube_on(state: State, name: str, goods_name: str) -> bool:
    k = TILE_IDS[name]
    slot = ISLAND_SLOTS[k].index(GOODS[goods_name])
    return bool(state.island_cubes[k] >> slot & 1)
