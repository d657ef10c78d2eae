"""Fuzzing ``from_dict`` (issue 11, A7): every snapshot it accepts is a position play can
continue from.

Real snapshots from seeded random games (every phase, the rare ORDER, DOUBLE and EXTRA
decisions and finished games as often as the common ones) get ONE field mutated at random:
a number out of range or of the wrong type, None, a list shortened or lengthened, a nested
value changed, a key added or dropped. Each mutant must either be refused with
``InvalidStateError`` or load into a state that keeps every invariant of the playout tests
at every step of a seeded random continuation to the end (the mask equals the legal
actions, the finished game has zero-sum returns, observations stay in bounds). Any other
exception fails the test, with the mutation named.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import numpy as np
import pytest

from boardgame_envs import make_rules
from boardgame_envs.carcassonne_castle.rules import PHASES
from boardgame_envs.core.native import native_games
from boardgame_envs.core.rules import InvalidStateError, State
from tests.carcassonne_castle.helpers import RULES, random_game
from tests.carcassonne_castle.test_playouts import INVARIANTS
from tests.native.lockstep import continue_lockstep, same_errors

MUTATIONS = 1500
SEED = 20261201
#: the phases the sources cover, each drawn as often as the others
SOURCE_PHASES = (*PHASES, "GAME_OVER")
#: seeds of random games (actions drawn by ``default_rng(seed)``) with an ORDER, a DOUBLE
#: and an EXTRA decision, four each (found by a search over seeds 0-599)
SOURCE_SEEDS = (17, 23, 34, 40, 32, 69, 97, 390, 18, 53, 88, 113)


def source_snapshots() -> dict[str, list[str]]:
    """Snapshots (JSON text) of seeded random games, by phase."""
    by_phase: dict[str, list[str]] = {phase: [] for phase in SOURCE_PHASES}
    pick = np.random.default_rng(SEED)
    for seed in SOURCE_SEEDS:
        for state in random_game(seed):
            if state.phase not in ("PLACE", "FOLLOWER") or pick.random() < 0.05:
                by_phase[state.phase].append(state.to_json())
    return by_phase


def _other_value(value: Any, rng: np.random.Generator) -> Any:
    """A replacement for one value: same type but out of range or off by one, another
    type, None, a list shortened or lengthened..."""
    if isinstance(value, bool):
        options = [not value, int(value), None, "true", 1.0]
    elif isinstance(value, int):
        options = [
            value + 1,
            value - 1,
            -1,
            0,
            1,
            2,
            int(rng.integers(-3, 400)),
            10**6,
            value + 0.5,
            float(value),
            True,
            False,
            None,
            str(value),
            [value],
        ]
    elif isinstance(value, str):
        options = ["", "PLACE", "ORDER", "GAME_OVER", value + "x", 0, None]
    elif value is None:
        options = [0, 1, int(rng.integers(0, 400)), True, [], "x"]
    elif isinstance(value, list):
        options = [None, [], 0, {}, "list"]
        if value:
            shorter = list(value)
            del shorter[int(rng.integers(len(value)))]
            longer = list(value)
            longer.insert(int(rng.integers(len(value) + 1)), value[int(rng.integers(len(value)))])
            shuffled = [value[i] for i in rng.permutation(len(value))]
            options += [shorter, longer, shuffled, value[:-1], value + [value[-1]]]
        options.append(list(value) + [int(rng.integers(0, 60))])
    elif isinstance(value, dict):
        options = [None, [], {**value, "unknown": 1}, dict(list(value.items())[1:])]
    else:  # pragma: no cover - snapshots hold JSON values only
        raise AssertionError(f"unexpected value {value!r}")
    return options[int(rng.integers(len(options)))]


def mutate(data: dict, rng: np.random.Generator) -> str:
    """Change one field of ``data`` in place (a top-level field, or a value nested in it);
    return a description of the change."""
    key: Any = sorted(data)[int(rng.integers(len(data)))]
    parent: Any = data
    path = [key]
    while (
        isinstance(parent[key], (list, dict)) and parent[key] and rng.random() < 0.65
    ):  # descend into the container
        container = parent[key]
        child = (
            int(rng.integers(len(container)))
            if isinstance(container, list)
            else sorted(container)[int(rng.integers(len(container)))]
        )
        parent, key = container, child
        path.append(key)
    old = parent[key]
    parent[key] = _other_value(old, rng)
    where = "".join(f"[{k!r}]" for k in path)
    return f"{where}: {old!r} -> {parent[key]!r}"


def play_on_checked(state: State, rng: np.random.Generator, where: str) -> None:
    """A random continuation to the end, every invariant and the contract at every step."""
    low, high = RULES.observation_bounds
    for seat in (0, 1):
        obs = state.view(seat).observation()
        assert obs.shape == RULES.observation_shape and low <= obs.min() and obs.max() <= high
    again = RULES.from_json(state.to_json())
    assert again.to_json() == state.to_json(), f"{where}: the loaded state does not round-trip"
    bound = RULES.max_decisions(2, state.config)
    for step in range(bound + 1):
        for invariant in INVARIANTS:
            try:
                invariant(state)
            except AssertionError as error:
                raise AssertionError(
                    f"{where}, step {step}: invariant {invariant.__name__} failed: {error}"
                ) from None
        if state.is_terminal():
            assert not state.legal_action_mask().any(), where
            assert sum(state.returns()) == 0 and state.winners(), where
            return
        legal = state.legal_actions()
        assert legal, f"{where}, step {step}: a live state has no legal action"
        assert legal == np.flatnonzero(state.legal_action_mask()).tolist(), where
        assert np.array_equal(
            state.view(state.current_player).legal_action_mask(), state.legal_action_mask()
        ), where
        state.apply(int(rng.choice(legal)))
    raise AssertionError(f"{where}: the continuation exceeded {bound} decisions")


def test_every_accepted_mutant_plays_on_to_the_end_with_every_invariant():
    sources = source_snapshots()
    assert all(sources.values()), {phase: len(s) for phase, s in sources.items()}
    rng = np.random.default_rng(SEED)
    outcomes: Counter = Counter()
    for n in range(MUTATIONS):
        phase = SOURCE_PHASES[n % len(SOURCE_PHASES)]
        text = sources[phase][int(rng.integers(len(sources[phase])))]
        data = json.loads(text)
        change = mutate(data, rng)
        where = f"mutation {n} of a {phase} snapshot, {change}"
        try:
            state = RULES.from_dict(data)
        except InvalidStateError:
            outcomes["refused"] += 1
            continue
        except Exception as error:  # anything but InvalidStateError is a bug
            raise AssertionError(f"{where}: {type(error).__name__}: {error}") from error
        outcomes["unchanged" if json.loads(state.to_json()) == json.loads(text) else "loaded"] += 1
        try:
            play_on_checked(state, np.random.default_rng(n), where)
        except AssertionError:
            raise
        except Exception as error:
            raise AssertionError(f"{where}: {type(error).__name__}: {error}") from error
    # both outcomes are common: the fuzzing reaches past the type checks
    assert outcomes["refused"] >= MUTATIONS // 3, outcomes
    assert outcomes["loaded"] + outcomes["unchanged"] >= MUTATIONS // 10, outcomes


@pytest.mark.skipif(
    "carcassonne_castle" not in native_games(), reason="carcassonne_castle is not compiled"
)
def test_mutants_load_alike_on_the_native_engine_and_play_on_in_lockstep():
    """Fewer mutants on the compiled engine: refused with the same error, or loaded into the
    same position, which then plays on move for move like the Python engine's."""
    native_rules = make_rules("carcassonne_castle", engine="native")
    sources = source_snapshots()
    rng = np.random.default_rng(SEED + 1)
    loaded = 0
    for n in range(300):
        phase = SOURCE_PHASES[n % len(SOURCE_PHASES)]
        data = json.loads(sources[phase][int(rng.integers(len(sources[phase])))])
        change = mutate(data, rng)
        try:
            python_state = RULES.from_dict(data)
        except InvalidStateError:
            same_errors(lambda d=data: RULES.from_dict(d), lambda d=data: native_rules.from_dict(d))
            continue
        native_state = native_rules.from_dict(data)
        assert native_state.to_json() == python_state.to_json(), change
        loaded += 1
        continue_lockstep(python_state, native_state, n, views_every=8, max_steps=12)
    assert loaded >= 30
