"""Fuzzed snapshots: every snapshot ``from_dict`` accepts is a position play goes on from.

Real snapshots come from seeded games (every decision point and the end; 2-4 players, with
and without ``hide_opponent_hands``, from the setup and from a card-rich start so that the
action cards' decision points occur, plus built positions for the rare REWARD_DISCARD).
ONE field of each is mutated at random (a number out of range or nudged, a wrong type,
None, a list shortened, lengthened or emptied, a nested value changed). Loading must then
either raise ``InvalidStateError`` or give a state that round-trips and whose random
continuation to the end keeps every invariant of the playout tests and the rules contract
(the mask is the legal actions, a live state has a move, a finished one none and
zero-sum returns, the observation of every seat lies in its declared space). Any other
exception is a failure.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any

import numpy as np

from boardgame_envs import InvalidStateError
from boardgame_envs.wasabi.encoding import OBSERVATION_BOUNDS, OBSERVATION_SIZE
from boardgame_envs.wasabi.rules import GAME_OVER, PHASES, State
from tests.wasabi.helpers import RULES
from tests.wasabi.test_determinization import built_positions, card_rich_start, policy
from tests.wasabi.test_playouts import INVARIANTS

MUTATIONS = 3000
HIDE = {"hide_opponent_hands": True}
#: (player count, options, start from a card-rich position?) of the source games; the
#: short turn limits keep continuations cheap and make the limit's end occur too.
GAMES = [
    (2, {"max_turns": 30}, False),
    (3, {"max_turns": 30, **HIDE}, False),
    (4, {"max_turns": 20}, False),
    (2, {}, True),
    (3, HIDE, True),
    (4, {}, True),
]
EVERY = 5  # a snapshot every 5th decision (and the first of each decision point, the end)


def snapshots() -> list[dict[str, Any]]:
    found = []
    for game, (num_players, options, rich) in enumerate(GAMES):
        if rich:
            state = card_rich_start(num_players, hide=bool(options))
        else:
            state = RULES.new_state(num_players, seed=game, **options)
        rng = np.random.default_rng(game)
        seen: set[str] = set()
        step = 0
        while True:
            if state.phase not in seen or step % EVERY == 0 or state.is_terminal():
                found.append(json.loads(state.to_json()))
            seen.add(state.phase)
            if state.is_terminal():
                break
            state.apply(policy(state, rng))
            step += 1
    for hide in (False, True):
        found += [json.loads(state.to_json()) for state in built_positions(hide)]
    return found


def nodes(value: Any, path: tuple = ()) -> list[tuple]:
    """Paths to every value inside ``value`` (the containers themselves included)."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += nodes(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += nodes(item, (*path, i))
    return found


def replacements(value: Any, rng: np.random.Generator) -> list[Any]:
    """Candidate new values for one field: wrong types, None, out-of-range numbers, ..."""
    out: list[Any] = [None, "3", 2.5, True, [], {}]
    if isinstance(value, bool):
        out += [not value, int(value), 1 - int(value), not value]
    elif isinstance(value, int):
        big = int(rng.integers(18, 10**6))
        out += [value + 1, value - 1, -1, -big, big, 10**30, float(value), value + 0.5]
        out += [value + k for k in (2, 3, 4, 5)] + [value - k for k in (2, 3, 4, 5)]
        out += [0, 1, 2, 3, 4, 16, 17, 41, 42, 51, 52, not value]
    elif isinstance(value, str):
        out += [value + "x", "", 0, *PHASES, GAME_OVER, "random"]
    elif isinstance(value, list):
        shorter = value[:-1]
        longer = value + [value[-1] if value else 0]
        shuffled = [value[i] for i in rng.permutation(len(value))]
        out += [shorter, longer, shuffled, value + [0], value + [None], [value], value * 2]
        if value:
            dropped = list(value)
            del dropped[int(rng.integers(len(value)))]
            out += [dropped, value[1:]]
    elif value is None:
        out += [0, 1, 2, 3, 4, 6, 16, 17, 41, -1, [0, 1], False]
    elif isinstance(value, dict):
        out += [{**value, "extra": 1}, {k: v for k, v in list(value.items())[:-1]}]
    return out


def mutate(snapshot: dict[str, Any], rng: np.random.Generator) -> tuple[dict[str, Any], tuple]:
    """A deep copy with one field (at any depth) replaced; returns it and the path."""
    data = copy.deepcopy(snapshot)
    paths = nodes(data)[1:]  # not the whole snapshot
    path = paths[int(rng.integers(len(paths)))]
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    options = replacements(parent[path[-1]], rng)
    parent[path[-1]] = options[int(rng.integers(len(options)))]
    return data, path


def play_to_end_checked(state: State, seed: int, where: str) -> None:
    rng = np.random.default_rng(seed)
    low, high = OBSERVATION_BOUNDS
    bound = RULES.max_decisions(state.num_players, state.config)
    for step in range(bound + 1):
        here = f"{where} step {step}"
        for invariant in INVARIANTS:
            try:
                invariant(state)
            except AssertionError as error:
                raise AssertionError(f"{here}: {invariant.__name__}: {error}") from None
        mask = state.legal_action_mask()
        legal = state.legal_actions()
        assert legal == np.flatnonzero(mask).tolist(), f"{here}: mask != legal actions"
        if step == 0 or state.is_terminal():
            for seat in range(state.num_players):
                obs = state.view(seat).observation()
                assert obs.shape == (OBSERVATION_SIZE,), here
                assert low <= obs.min() and obs.max() <= high, f"{here}: seat {seat} obs"
        if state.is_terminal():
            assert not legal, f"{here}: a finished game has legal actions"
            assert abs(sum(state.returns())) < 1e-9 and state.winners(), here
            return
        assert legal, f"{here}: a live state has no legal action"
        state.apply(int(rng.choice(legal)))
    raise AssertionError(f"{where}: the continuation exceeded {bound} decisions")


def test_mutated_snapshots_are_refused_or_play_on_soundly():
    sources = snapshots()
    assert {s["phase"] for s in sources} == {*PHASES, GAME_OVER}
    for source in sources:  # the unmutated snapshots load back as they are
        assert json.loads(RULES.from_dict(source).to_json()) == source
    rng = np.random.default_rng(2024)
    accepted, refused = Counter(), Counter()
    for i in range(MUTATIONS):
        source = sources[int(rng.integers(len(sources)))]
        data, path = mutate(source, rng)
        where = f"mutation {i}: {path} = {_get(data, path)!r} in a {source['phase']} snapshot"
        try:
            state = RULES.from_dict(data)
        except InvalidStateError as error:
            refused[path[0]] += 1
            assert str(error), where
            continue
        except Exception as error:  # noqa: BLE001 - anything else is the bug we look for
            raise AssertionError(f"{where}: {type(error).__name__}: {error}") from error
        accepted[path[0]] += 1
        # An accepted snapshot round-trips and plays on to the end with every invariant.
        assert RULES.from_json(state.to_json()).to_json() == state.to_json(), where
        play_to_end_checked(state, seed=i, where=where)
    assert sum(refused.values()) > MUTATIONS / 2
    assert sum(accepted.values()) > MUTATIONS / 50  # harmless changes (a deck's order, ...)
    assert set(refused) == set(sources[0]), set(sources[0]) - set(refused)


def _get(data: Any, path: tuple) -> Any:
    for key in path:
        data = data[key]
    return data
