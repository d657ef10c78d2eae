"""Snapshot fuzzing: every snapshot ``from_dict`` accepts is a position play continues from.

Real snapshots of seeded games (every phase: the explore phase, bounty choices with cubes set
aside, actions, depletion, the final round, both kinds of end, and the constructed rare Haumea
case) each get ONE field mutated at random: a number out of range or off by one, a wrong type
(bool, float, string, None, list), a list shortened, lengthened or reordered, an object with a
key dropped, added or renamed, a nested value changed. Loading must then either raise
``InvalidStateError`` or give a state that

* is exactly the mutated snapshot (its ``to_dict`` has the same JSON: nothing was coerced,
  ``true`` did not become ``1``), and loads back from its own JSON;
* plays on at random to the end with every invariant of ``test_playouts`` and the contract
  checks of ``random_playouts`` (mask equals the legal actions, a live state has a legal
  action, a finished one none, returns zero-sum) at every step, within the game's bound.

Any other exception is a failure. Seeded; a few thousand mutations in well under 20 s.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import numpy as np

from boardgame_envs.core.rules import InvalidStateError
from boardgame_envs.tahiti.data import GOODS_NAMES, TILE_NAMES
from boardgame_envs.tahiti.rules import PHASES, State
from tests.tahiti.helpers import RULES
from tests.tahiti.test_playouts import INVARIANTS, busy_action
from tests.tahiti.test_rules import rare_case_position

MUTATIONS = 3000
EVERY = 7  # steps between two snapshots of a uniformly random game

#: Strings of the snapshot's own vocabularies, so that mutations also try valid-looking names.
DOMAIN = [
    *TILE_NAMES,
    *GOODS_NAMES,
    *PHASES,
    *(f"F{f}" for f in range(1, 8)),
    "plain",
    "fishing",
    "C",
    "B",
    "T",
    "S",
    "F",
    "CB",
    "TS",
    "PCG64",
    "tahiti",
]


def source_snapshots() -> list[dict[str, Any]]:
    """Snapshots of seeded games: uniformly random games under a short round limit (every
    EVERY-th step, and every step with cubes set aside), the final round and end of busy
    games that reach the season's end, and the rare Haumea case."""
    out = []
    for n in (2, 3, 4):
        for seed in range(3):
            state = RULES.new_state(n, seed=10 * n + seed, max_rounds=8)
            rng = np.random.default_rng(seed)
            step = 0
            while not state.is_terminal():
                if step % EVERY == seed or any(state.aside):
                    out.append(state.to_dict())
                state.apply(int(rng.choice(state.legal_actions())))
                step += 1
            out.append(state.to_dict())
        # busy games: only the final round (their continuations are short)
        state = RULES.new_state(n, seed=n, max_rounds=200)
        rng = np.random.default_rng(n)
        while not state.is_terminal():
            if state.end_triggered:
                out.append(state.to_dict())
            state.apply(busy_action(state, rng))
        out.append(state.to_dict())
    rare = rare_case_position().to_dict()
    rare["config"] = {"max_rounds": 3}
    out.append(rare)
    return out


def paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    """The path of every value inside ``node`` (containers and leaves), the root excluded."""
    out = []
    if isinstance(node, dict):
        items = list(node.items())
    elif isinstance(node, list):
        items = list(enumerate(node))
    else:
        return out
    for key, value in items:
        out.append((*prefix, key))
        out += paths(value, (*prefix, key))
    return out


def replacements(value: Any, rng: np.random.Generator) -> list[Any]:
    """Candidate values to put in place of ``value``."""
    word = DOMAIN[int(rng.integers(len(DOMAIN)))]
    if isinstance(value, bool):
        return [not value, int(value), 1.0, "true", None, [value]]
    if isinstance(value, int):
        return [
            value + 1,
            value - 1,
            -1,
            0,
            1,
            2,
            5,
            17,
            10**9,
            -(10**9),
            2**130,
            8.7,
            float(value),
            True,
            False,
            None,
            str(value),
            [value],
        ]
    if isinstance(value, str):
        return [None, "", "x", 3, True, value + "x", value.lower(), word, [value]]
    if value is None:
        return [0, False, [], {}, "", word, [0, 0], [1, -1], [value]]
    if isinstance(value, list):
        out: list[Any] = [None, "x", {}, [], word]
        if value:
            i = int(rng.integers(len(value)))
            out += [value[:i] + value[i + 1 :], value[: i + 1] + value[i:], [*value, word]]
        if len(value) > 1:
            i, j = rng.choice(len(value), 2, replace=False)
            swapped = list(value)
            swapped[i], swapped[j] = swapped[j], swapped[i]
            out += [value[::-1], swapped]
        return out
    if isinstance(value, dict):
        out = [None, [], "x", {}]
        keys = list(value)
        if keys:
            key = keys[int(rng.integers(len(keys)))]
            dropped = {k: v for k, v in value.items() if k != key}
            renamed = {(word if k == key else k): v for k, v in value.items()}
            added = {**value, word: value[key]}
            out += [dropped, renamed, added]
        else:
            out += [{word: word}, {word: 1}]
        return out
    return [None]


def mutate(snapshot: dict[str, Any], rng: np.random.Generator) -> tuple[tuple, Any, dict]:
    """A deep copy of ``snapshot`` with the value at one random path replaced."""
    mutated = copy.deepcopy(snapshot)
    where = paths(mutated)
    path = where[int(rng.integers(len(where)))]
    parent = mutated
    for key in path[:-1]:
        parent = parent[key]
    options = replacements(parent[path[-1]], rng)
    new = copy.deepcopy(options[int(rng.integers(len(options)))])
    parent[path[-1]] = new
    return path, new, mutated


def canonical(snapshot: dict[str, Any]) -> str:
    """The JSON of a snapshot up to the order of its board entries (a set of placed tiles)."""
    data = dict(snapshot)
    if isinstance(data.get("board"), list):
        data["board"] = sorted(data["board"], key=json.dumps)
    return json.dumps(data, sort_keys=True)


def play_to_end_checked(state: State, rng: np.random.Generator, where: str) -> None:
    """A uniformly random continuation with the invariants and the contract at every step."""
    bound = RULES.max_decisions(state.num_players, state.config)
    for step in range(bound + 1):
        here = f"{where} continuation step {step}"
        for invariant in INVARIANTS:
            try:
                invariant(state)
            except AssertionError as error:
                raise AssertionError(f"{here}: {invariant.__name__} failed: {error}") from None
        mask = state.legal_action_mask()
        legal = state.legal_actions()
        assert legal == np.flatnonzero(mask).tolist(), f"{here}: mask differs from legal"
        if state.is_terminal():
            assert not legal, f"{here}: a finished game has legal actions"
            assert abs(sum(state.returns())) < 1e-9 and state.winners(), f"{here}: returns"
            return
        assert legal, f"{here}: a live state has no legal action"
        view_mask = state.view(state.current_player).legal_action_mask()
        assert np.array_equal(view_mask, mask), f"{here}: the mover's view mask differs"
        state.apply(int(rng.choice(legal)))
    raise AssertionError(f"{where}: the continuation exceeded {bound} decisions")


def test_sources_cover_every_phase_and_both_ends():
    sources = source_snapshots()
    assert {s["phase"] for s in sources} == set(PHASES)
    assert any(s["truncated"] for s in sources)
    assert any(s["phase"] == "GAME_OVER" and s["end_triggered"] for s in sources)
    assert any(any(s["aside"]) for s in sources)  # cubes set aside during a bounty choice
    for snapshot in sources:  # and every one of them loads as it is
        assert canonical(RULES.from_dict(copy.deepcopy(snapshot)).to_dict()) == canonical(snapshot)


def test_one_field_mutations_are_refused_or_play_on():
    sources = source_snapshots()
    rng = np.random.default_rng(2024)
    refused = accepted = 0
    for i in range(MUTATIONS):
        snapshot = sources[int(rng.integers(len(sources)))]
        path, new, mutated = mutate(snapshot, rng)
        where = f"mutation {i}: {'.'.join(map(str, path))} = {new!r}"
        try:
            state = RULES.from_dict(mutated)
        except InvalidStateError:
            refused += 1
            continue
        accepted += 1
        assert canonical(state.to_dict()) == canonical(mutated), f"{where}: loaded as changed"
        assert RULES.from_json(state.to_json()).to_json() == state.to_json(), where
        play_to_end_checked(state, np.random.default_rng(i), where)
    # both outcomes occur often: the fuzz reaches the checks and the positions beyond them
    assert refused > MUTATIONS // 2 and accepted > MUTATIONS // 20, (refused, accepted)
