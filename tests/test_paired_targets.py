"""The soft target of a paired comparison: how often the search's own rule picks each move
over resamples of the determinizations it compared them on."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs.agents.search import PairedEvidence
from boardgame_envs.agents.search_net import search_policy_target
from boardgame_envs.agents.specs import make_agent
from tests.test_search import positions


def evidence(gains, guard=0.0, z=1.0, candidates=None):
    gains = np.asarray(gains, dtype=float)
    candidates = candidates or tuple(range(10, 10 + len(gains)))
    return PairedEvidence(tuple(candidates), gains, guard, z)


def shares(paired, seed=0, resamples=200):
    return paired.choice_shares(resamples, np.random.default_rng(seed))


def test_a_move_better_on_every_determinization_takes_the_whole_target():
    rng = np.random.default_rng(1)
    gains = [np.zeros(48), rng.uniform(0.2, 0.6, 48), rng.uniform(-0.5, -0.1, 48)]
    assert shares(evidence(gains)) == {11: 1.0}


def test_no_better_move_leaves_the_whole_target_on_the_heuristics_move():
    rng = np.random.default_rng(2)
    gains = [np.zeros(48), rng.uniform(-0.5, -0.1, 48), np.zeros(48)]
    assert shares(evidence(gains)) == {10: 1.0}


def test_two_moves_the_search_cannot_tell_apart_share_the_target():
    rng = np.random.default_rng(3)
    better = rng.choice([0.0, 1.0], size=48, p=[0.5, 0.5])
    gains = [np.zeros(48), better, better[rng.permutation(48)]]
    target = shares(evidence(gains))
    assert set(target) <= {10, 11, 12}
    assert sum(target.values()) == pytest.approx(1.0)
    assert target[11] > 0.2 and target[12] > 0.2


def test_a_noisy_gain_is_a_departure_only_in_part_of_the_resamples():
    rng = np.random.default_rng(4)
    noisy = rng.normal(0.1, 1.0, 48)  # about one standard error above zero
    noisy -= noisy.mean() - 0.15
    target = shares(evidence([np.zeros(48), noisy]))
    assert 0.1 < target[11] < 0.9 and target[10] == pytest.approx(1 - target[11])


def test_the_guard_and_z_are_the_searchs_own():
    gains = [np.zeros(8), np.full(8, 0.05)]
    assert shares(evidence(gains, guard=0.0, z=0.0)) == {11: 1.0}
    assert shares(evidence(gains, guard=0.1, z=0.0)) == {10: 1.0}
    one = [np.zeros(1), np.ones(1)]
    assert shares(evidence(one, z=1.0)) == {10: 1.0}  # one sample: no standard error
    assert shares(evidence(one, z=0.0)) == {11: 1.0}


def test_the_same_generator_seed_gives_the_same_target():
    rng = np.random.default_rng(5)
    gains = [np.zeros(24), rng.normal(0.05, 0.5, 24), rng.normal(0.05, 0.5, 24)]
    paired = evidence(gains)
    assert shares(paired, seed=9) == shares(paired, seed=9)


def test_a_paired_search_gives_a_distribution_over_the_legal_moves():
    """Cornucopia's search compares every legal move by paired rollouts: the target is a
    distribution over the legal moves, all on the heuristic's move where no move ever gained."""
    agent = make_agent("ismcts:seconds=0,iterations=12", "cornucopia", seed=3)
    seen_soft = 0
    for state in positions("cornucopia", 2, seed=6, every=2, limit=10):
        view = state.view(state.current_player)
        mask = view.legal_action_mask()
        action = agent.act(view)
        paired = agent.last_paired
        target = search_policy_target(agent, view, action, np.random.default_rng(0))
        assert target.dtype == np.float32 and target.sum() == pytest.approx(1.0, abs=1e-6)
        assert (target[~mask] == 0).all() and (target >= 0).all()
        if paired is None:
            assert target[action] == 1.0
            continue
        assert set(np.flatnonzero(target)) <= set(paired.candidates)
        own = paired.candidates[0]
        if (paired.gains <= 0).all():  # no move gained on any determinization
            assert target[own] == 1.0 and action == own
        seen_soft += target.max() < 1.0
    assert seen_soft
