"""Checks every game's tests reuse (and users can run on their own games).

* :func:`random_playouts` plays seeded random games and checks the rules contract at every
  step: the mask equals the legal actions, every legal action is accepted, an illegal or
  out-of-range action raises ``IllegalActionError`` and changes nothing, plus the game's
  own invariants (card conservation, hand limits, …) passed as hooks.
* :func:`check_continuations` checks that ``clone()`` and a JSON round trip continue a game
  exactly as the original does.
* :func:`check_hidden_information` checks that a seat's observation does not change when
  the facts it cannot see are resampled (and does change when its own private facts do).
* :func:`check_determinization` checks ``rules.sample_state(view, rng)``: the sample shows
  the seat exactly its view, is reproducible, leaves the original alone and plays on to the
  end with every invariant; :func:`check_sample_reads_view_only` checks that two states that
  differ only in hidden facts give the same samples.

Each failure raises ``AssertionError`` with the seed and step, so it can be replayed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardgame_envs.core.rules import IllegalActionError, PlayerView, Rules, State

Invariant = Callable[[State], None]


@dataclass
class PlayoutStats:
    """What a batch of playouts covered."""

    games: int = 0
    steps: int = 0
    longest: int = 0
    actions_seen: set[int] = field(default_factory=set)
    phases_seen: set[str] = field(default_factory=set)


def random_playouts(
    rules: Rules,
    num_players: int,
    seeds: Iterable[int],
    invariants: Sequence[Invariant] = (),
    options: dict[str, Any] | None = None,
    check_actions: bool = True,
) -> PlayoutStats:
    """Play one uniformly random game per seed, checking the contract at every step.

    ``check_actions`` also tries every legal action on a clone and one illegal and one
    out-of-range action on the state itself (the expensive part).
    """
    stats = PlayoutStats()
    bound = rules.max_decisions(num_players, rules.make_config(options or {}))
    for seed in seeds:
        state = rules.new_state(num_players, seed=seed, **(options or {}))
        rng = np.random.default_rng(seed + 1_000_003)
        steps = 0
        while True:
            where = f"{rules.name} n={num_players} seed={seed} step={steps}"
            _check_invariants(state, invariants, where)
            if state.is_terminal():
                _check_terminal(state, where)
                break
            legal = _check_mask(state, where)
            if check_actions:
                _check_every_legal_action_accepted(state, legal, invariants, where)
                _check_illegal_actions_rejected(state, legal, rng, where)
            action = int(rng.choice(legal))
            stats.actions_seen.add(action)
            stats.phases_seen.add(state._phase_name())
            state.apply(action)
            steps += 1
            assert steps <= bound, f"{where}: game exceeded its bound of {bound} decisions"
        stats.games += 1
        stats.steps += steps
        stats.longest = max(stats.longest, steps)
    return stats


def _check_invariants(state: State, invariants: Sequence[Invariant], where: str) -> None:
    for invariant in invariants:
        try:
            invariant(state)
        except AssertionError as error:
            name = invariant.__name__
            raise AssertionError(f"{where}: invariant {name} failed: {error}") from None


def _check_terminal(state: State, where: str) -> None:
    assert not state.legal_action_mask().any(), f"{where}: terminal state has legal actions"
    returns = state.returns()
    assert abs(sum(returns)) < 1e-9, f"{where}: returns {returns} are not zero-sum"
    assert state.winners(), f"{where}: a finished game has no winner"


def _check_mask(state: State, where: str) -> list[int]:
    mask = state.legal_action_mask()
    assert mask.dtype == bool and mask.shape == (state.rules.action_size,), (
        f"{where}: mask has dtype {mask.dtype} and shape {mask.shape}"
    )
    legal = state.legal_actions()
    assert legal, f"{where}: a live state has no legal action"
    assert legal == np.flatnonzero(mask).tolist(), f"{where}: mask differs from legal_actions"
    view_mask = state.view(state.current_player).legal_action_mask()
    assert np.array_equal(view_mask, mask), f"{where}: the mover's view mask differs"
    return legal


def _check_every_legal_action_accepted(
    state: State, legal: list[int], invariants: Sequence[Invariant], where: str
) -> None:
    for action in legal:
        child = state.clone()
        try:
            child.apply(action)
        except IllegalActionError as error:
            raise AssertionError(f"{where}: legal action {action} was refused: {error}") from None
        _check_invariants(child, invariants, f"{where} after action {action}")


def _check_illegal_actions_rejected(
    state: State, legal: list[int], rng: np.random.Generator, where: str
) -> None:
    before = state.to_dict()
    legal_set = set(legal)
    illegal = [a for a in range(state.rules.action_size) if a not in legal_set]
    candidates = [state.rules.action_size, -1]
    if illegal:
        candidates.append(illegal[int(rng.integers(len(illegal)))])
    for action in candidates:
        try:
            state.apply(action)
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"{where}: illegal action {action} was accepted")
        assert state.to_dict() == before, f"{where}: illegal action {action} changed the state"


def play_trace(state: State, num_steps: int, seed: int) -> list[tuple[int, str]]:
    """Continue ``state`` with seeded random actions; the (action, JSON) trace."""
    rng = np.random.default_rng(seed)
    trace = []
    for _ in range(num_steps):
        if state.is_terminal():
            break
        action = int(rng.choice(state.legal_actions()))
        state.apply(action)
        trace.append((action, state.to_json()))
    return trace


def check_continuations(
    rules: Rules,
    num_players: int,
    seed: int,
    at_step: int,
    options: dict[str, Any] | None = None,
) -> None:
    """Play ``at_step`` random steps, then continue the original, a clone and a JSON copy
    with the same random actions: all three must stay identical (chance included)."""
    state = rules.new_state(num_players, seed=seed, **(options or {}))
    play_trace(state, at_step, seed)
    clone = state.clone()
    copy = rules.from_json(state.to_json())
    assert copy.to_json() == state.to_json(), "JSON round trip changed the state"
    original = play_trace(state, 10_000, seed + 1)
    assert play_trace(clone, 10_000, seed + 1) == original, "clone continued differently"
    assert play_trace(copy, 10_000, seed + 1) == original, "JSON copy continued differently"


def check_hidden_information(
    state: State,
    seat: int,
    resample_hidden: Callable[[State, int, np.random.Generator], State],
    rng: np.random.Generator,
    tries: int = 3,
) -> None:
    """``seat``'s view and observation must not change when ``resample_hidden`` changes
    what ``seat`` cannot know."""
    observation = state.view(seat).observation()
    mask = state.view(seat).legal_action_mask()
    for _ in range(tries):
        other = resample_hidden(state, seat, rng)
        assert np.array_equal(other.view(seat).observation(), observation), (
            f"seat {seat}'s observation changed when hidden facts were resampled"
        )
        assert np.array_equal(other.view(seat).legal_action_mask(), mask), (
            f"seat {seat}'s mask changed when hidden facts were resampled"
        )


def assert_views_equal(a: PlayerView, b: PlayerView, where: str = "") -> None:
    """Every field of two views is equal (arrays element by element), and so are their
    observations and masks; the first difference is named."""
    assert type(a) is type(b), f"{where}: views of types {type(a)} and {type(b)}"
    for f in dataclasses.fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            same = np.array_equal(x, y)
        else:
            same = x == y
        assert same, f"{where}: view field {f.name!r} differs: {x!r} != {y!r}"
    assert np.array_equal(a.observation(), b.observation()), f"{where}: observations differ"
    assert np.array_equal(a.legal_action_mask(), b.legal_action_mask()), f"{where}: masks differ"


def check_determinization(
    state: State,
    seat: int,
    seed: int,
    invariants: Sequence[Invariant] = (),
    play_to_end: bool = True,
) -> State:
    """``rules.sample_state(state.view(seat), rng)`` must give a state that shows ``seat``
    exactly the same view, the same again for the same seed, leaves ``state`` and the view
    unchanged, keeps the invariants, loads back from its JSON, and (``play_to_end``) plays
    on at random to the end with the contract checked at every step. Returns the sample."""
    rules = state.rules
    where = f"{rules.name} n={state.num_players} seat={seat} seed={seed}"
    before = state.to_json()
    view = state.view(seat)
    sample = rules.sample_state(view, np.random.default_rng(seed))
    assert type(sample) is type(state) and sample is not state, f"{where}: not a new State"
    assert sample.num_players == state.num_players, f"{where}: player count changed"
    assert state.to_json() == before, f"{where}: sampling changed the original state"
    assert_views_equal(sample.view(seat), view, where)
    assert_views_equal(state.view(seat), view, f"{where} (the view itself changed)")
    again = rules.sample_state(view, np.random.default_rng(seed))
    assert again.to_json() == sample.to_json(), f"{where}: same view and seed, other sample"
    _check_invariants(sample, invariants, where)
    assert rules.from_json(sample.to_json()).to_json() == sample.to_json(), (
        f"{where}: the sample's snapshot does not load back"
    )
    if play_to_end:
        _play_to_end_checked(sample.clone(), invariants, seed, where)
    return sample


def check_sample_reads_view_only(state: State, other: State, seat: int, seed: int) -> None:
    """``state`` and ``other`` differ only in what ``seat`` cannot see: their samples for the
    same seed must be identical."""
    where = f"{state.rules.name} n={state.num_players} seat={seat} seed={seed}"
    assert_views_equal(state.view(seat), other.view(seat), f"{where} (precondition)")
    a = state.rules.sample_state(state.view(seat), np.random.default_rng(seed))
    b = state.rules.sample_state(other.view(seat), np.random.default_rng(seed))
    assert a.to_json() == b.to_json(), f"{where}: the sample depends on hidden facts"


def _play_to_end_checked(
    state: State, invariants: Sequence[Invariant], seed: int, where: str
) -> None:
    rng = np.random.default_rng(seed + 7_919)
    bound = state.rules.max_decisions(state.num_players, getattr(state, "config", {}))
    for step in range(bound + 1):
        here = f"{where} continuation step={step}"
        _check_invariants(state, invariants, here)
        if state.is_terminal():
            _check_terminal(state, here)
            return
        legal = _check_mask(state, here)
        state.apply(int(rng.choice(legal)))
    raise AssertionError(f"{where}: the sample's continuation exceeded {bound} decisions")
