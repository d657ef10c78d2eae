"""Random one-field mutations of real snapshots: refused, or a position play continues from.

Snapshots come from seeded random matches of every player count, in every phase (finished
matches included). Each mutation changes ONE field, at the top or anywhere inside it: a
number off by one or far out of range, a wrong type (float, bool, str, None, a list), a
list shortened or lengthened, an entry swapped for another snapshot's, a key dropped or
added. ``from_dict`` must then either raise ``InvalidStateError`` or give a state that
keeps every invariant of the game (test_playouts.INVARIANTS), observes inside the declared
Box for every seat, round-trips through JSON, can be sampled from every seat's view, and
plays on at random to the end with the rules contract checked at every step. Any other
exception, anywhere, is a failure that names the mutation.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any

import numpy as np

from boardgame_envs import InvalidStateError
from boardgame_envs.core.testing import _check_invariants, _play_to_end_checked
from boardgame_envs.factors_multiples.rules import GAME_OVER, PHASES
from boardgame_envs.factors_multiples.snapshot import FIELDS
from tests.factors_multiples.helpers import RULES, rules_for
from tests.factors_multiples.test_playouts import INVARIANTS

MUTATIONS = 3000
NATIVE_MUTATIONS = 600  # on the compiled engine (tests/native fuzzes its class directly)
PLAYED_TO_END = 4  # every 4th accepted mutation is played to the end (the slow part)


def snapshots() -> list[dict[str, Any]]:
    """Real snapshots of every phase: seeded random 2-round matches, 2 to 5 players."""
    found: list[dict[str, Any]] = []
    options = [{}, {"k_discard_optional": True, "choose_after_refill": True}]
    for seed in range(8):
        n = 2 + seed % 4
        state = RULES.new_state(n, seed=seed, rounds=2, **options[seed % 2])
        rng = np.random.default_rng(seed)
        step = 0
        while not state.is_terminal():
            if step % 9 == 0 or state.phase not in ("PLAY", "K_ANSWER"):
                found.append(state.to_dict())
            state.apply(int(rng.choice(state.legal_actions())))
            step += 1
        found.append(state.to_dict())
    return found


def _odd_values(value: Any, rng: np.random.Generator, other: Any) -> list[Any]:
    """Replacements for ``value``: near and far numbers, wrong types, another snapshot's."""
    wrong_types = [None, True, False, "1", 1.0, 2.5, [], {}, [0]]
    if isinstance(value, bool):
        return [not value, 0, 1, None, "True"]
    if isinstance(value, int):
        near = [value + 1, value - 1, -1, 0, 1, 2, 4, 5, 12, 13, 26, 51, 52, 10**9]
        return near + [float(value), value + 0.5, bool(value % 2), str(value), None]
    if value is None:
        return [0, 1, 2, 4, 5, -1, 7, 1.0, "x", True]
    if isinstance(value, str):
        return [*PHASES, GAME_OVER, "", value.lower(), None, 0]
    return wrong_types + [other]


def mutate(data: dict[str, Any], rng: np.random.Generator, donor: dict[str, Any]) -> str:
    """Change one field of ``data`` in place (at a random depth); say what was done."""
    field = FIELDS[int(rng.integers(len(FIELDS)))]
    if field not in data:  # reveal_discard_marks may be absent: nothing to change
        field = "hands"
    if rng.random() < 0.02:
        del data[field]
        return f"deleted {field}"
    if rng.random() < 0.01:
        data["unknown_" + field] = 1
        return f"added unknown_{field}"
    path: list[Any] = [field]
    parent: Any = data
    key: Any = field
    node = data[field]
    other = donor.get(field)
    # Walk down a random number of levels into the field's lists and dicts.
    while isinstance(node, (list, dict)) and node and rng.random() < 0.6:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        key = keys[int(rng.integers(len(keys)))]
        parent, node = node, node[key]
        path.append(key)
        try:
            other = other[key] if other is not None else None
        except (KeyError, IndexError, TypeError):
            other = None
    where = "/".join(map(str, path))
    choice = rng.random()
    if isinstance(node, list) and choice < 0.45:
        if node and choice < 0.2:
            node.pop(int(rng.integers(len(node))))
            return f"{where}: shortened"
        if node and choice < 0.35:
            node.append(copy.deepcopy(node[int(rng.integers(len(node)))]))
            return f"{where}: an entry repeated"
        node.append(int(rng.integers(-2, 60)))
        return f"{where}: a number appended"
    if isinstance(node, dict) and choice < 0.3:
        if node and choice < 0.15:
            node.pop(list(node)[int(rng.integers(len(node)))])
            return f"{where}: a key dropped"
        node["bogus"] = 1
        return f"{where}: a key added"
    options = _odd_values(node, rng, other)
    new = copy.deepcopy(options[int(rng.integers(len(options)))])
    parent[key] = new
    return f"{where}: {node!r} -> {new!r}"


def check_accepted(state, seed: int, where: str, play_to_end: bool, rules=RULES) -> None:
    """What every loaded state must offer: invariants, in-Box observations, a JSON round
    trip, samples from every seat's view, and (``play_to_end``) a checked continuation."""
    _check_invariants(state, INVARIANTS, where)
    low, high = rules.observation_bounds
    text = state.to_json()
    assert rules.from_json(text).to_json() == text, f"{where}: JSON round trip differs"
    for seat in range(state.num_players):
        view = state.view(seat)
        obs = view.observation()
        assert obs.shape == rules.observation_shape, where
        assert low <= obs.min() and obs.max() <= high, f"{where}: seat {seat} leaves the Box"
        sample = rules.sample_state(view, np.random.default_rng(seed + seat))
        _check_invariants(sample, INVARIANTS, f"{where} sample for seat {seat}")
        rules.from_json(sample.to_json())
    if play_to_end:
        _play_to_end_checked(state, INVARIANTS, seed, where)


def test_mutated_snapshots_are_refused_or_play_on(engine):
    rules = rules_for(engine)
    mutations = MUTATIONS if engine == "python" else NATIVE_MUTATIONS
    pool = snapshots()
    assert {d["phase"] for d in pool} == {*PHASES, GAME_OVER}
    rng = np.random.default_rng(2024)
    outcomes: Counter[str] = Counter()
    fields: Counter[str] = Counter()
    accepted = 0
    for i in range(mutations):
        original = pool[int(rng.integers(len(pool)))]
        donor = pool[int(rng.integers(len(pool)))]
        data = json.loads(json.dumps(original))
        what = mutate(data, rng, donor)
        fields[what.split("/")[0].split(":")[0]] += 1
        where = f"mutation {i} of a {original['phase']} snapshot: {what}"
        try:
            state = rules.from_dict(data)
        except InvalidStateError:
            outcomes["refused"] += 1
            continue
        except Exception as error:  # noqa: BLE001 - any other exception is the failure
            raise AssertionError(f"{where}: {type(error).__name__}: {error}") from error
        outcomes["unchanged" if data == original else "accepted"] += 1
        try:
            check_accepted(state, i, where, accepted % PLAYED_TO_END == 0, rules)
        except AssertionError:
            raise
        except Exception as error:  # noqa: BLE001
            raise AssertionError(f"{where}: {type(error).__name__}: {error}") from error
        accepted += 1
    # The mutations reached every field, and both outcomes are common.
    assert outcomes["refused"] > mutations // 3, outcomes
    assert outcomes["accepted"] > mutations // 20, outcomes
    assert len(fields) >= len(FIELDS), fields
