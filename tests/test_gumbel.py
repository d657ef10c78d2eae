"""The Gumbel root search (agents/gumbel.py) and the labels it gives expert iteration: soft
targets summing to 1 over the legal moves, equivalent moves sharing theirs, one network pass
a halving round, the same decisions from the same seed, root values mixed into the value
targets."""

from __future__ import annotations

import math

import numpy as np
import pytest

from boardgame_envs.agents import gumbel
from boardgame_envs.agents.specs import make_agent, split_agent_specs
from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.registry import make_rules

#: The built-in games with a shipped 2-player network.
NET_GAMES = ("factors_multiples", "carcassonne_castle", "wasabi", "tahiti", "cornucopia")


def positions(game: str, count: int, seed: int = 5):
    """``count`` positions of a random 2-player game with two or more legal moves."""
    rules = make_rules(game)
    state = rules.new_state(2, seed=seed)
    rng = np.random.default_rng(seed)
    found = []
    while not state.is_terminal() and len(found) < count:
        legal = state.legal_actions()
        if len(legal) > 1:
            found.append(state.clone())
        state.apply(int(rng.choice(legal)))
    return found


@pytest.mark.parametrize("game", NET_GAMES)
def test_the_target_is_a_distribution_over_the_legal_moves(game):
    agent = make_agent(f"gumbel:{game},simulations=24,considered=8", game, seed=3)
    for state in positions(game, 6):
        view = state.view(state.current_player)
        action = agent.act(view)
        mask = view.legal_action_mask()
        target = agent.last_target
        assert mask[action]
        assert target.dtype == np.float32 and target.shape == mask.shape
        assert math.isclose(float(target.sum()), 1.0, rel_tol=1e-5)
        assert (target[~mask] == 0).all() and (target[mask] > 0).all()
        assert -1.0 <= agent.last_value <= 1.0


@pytest.mark.parametrize("game", NET_GAMES)
def test_one_network_pass_a_halving_round_never_one_a_simulation(game):
    agent = make_agent(f"gumbel:{game},simulations=64,considered=16", game, seed=3)
    for state in positions(game, 4):
        agent.act(state.view(state.current_player))
        considered = min(16, len(state.legal_actions()))
        rounds = math.ceil(math.log2(considered)) if considered > 1 else 0
        assert agent.last_passes <= 1 + rounds
        if agent.last_simulations:
            assert agent.last_simulations >= agent.last_passes - 1


def test_equivalent_moves_share_their_target():
    game = "carcassonne_castle"
    agent = make_agent(f"gumbel:{game},simulations=16", game, seed=1)
    shared = 0
    for state in positions(game, 12, seed=1):
        view = state.view(state.current_player)
        groups = gumbel.equivalent_moves(state, state.legal_actions(), view.seat)
        agent.act(view)
        for group in groups:
            assert len(set(agent.last_target[group].tolist())) == 1, group
            shared += len(group) > 1
    assert shared  # some tile's rotations gave the same placement


def test_the_same_seed_gives_the_same_decisions():
    game = "wasabi"
    first, second = (make_agent(f"gumbel:{game},simulations=32", game, seed=7) for _ in range(2))
    for state in positions(game, 5):
        view = state.view(state.current_player)
        assert first.act(view) == second.act(view)
        assert np.array_equal(first.last_target, second.last_target)
        assert first.last_value == second.last_value


def test_completed_values_and_the_shared_target_by_hand():
    logits = np.log(np.array([0.5, 0.3, 0.2, 1e-30]))
    q_sum, visits = {0: 1.5, 1: -0.5}, {0: 3, 1: 1}  # means 0.5 and -0.5
    completed = gumbel.completed_values(logits, 0.1, q_sum, visits, [0, 1, 2])
    mean_q = (0.5 * 0.5 + 0.3 * -0.5) / 0.8  # the compared moves, weighed by the policy
    assert completed[0] == pytest.approx(0.5) and completed[1] == pytest.approx(-0.5)
    assert completed[2] == pytest.approx((0.1 + 4 * mean_q) / 5)
    sigma = {0: 2.0, 1: 0.0, 2: 1.0}
    target = gumbel.shared_target(logits, sigma, [[0], [1, 3], [2]], 4)
    expected = np.exp(logits[:3] + [2.0, 0.0, 1.0])
    expected[1] = (0.3 + 1e-30) * math.exp(0.0)
    expected /= expected.sum()
    assert target[0] == pytest.approx(expected[0], rel=1e-5)
    assert target[1] == target[3] == pytest.approx(expected[1] / 2, rel=1e-5)
    assert target[2] == pytest.approx(expected[2], rel=1e-5)
    assert float(target.sum()) == pytest.approx(1.0, rel=1e-6)


@pytest.mark.parametrize(
    "spec, message",
    [
        ("gumbel:wasabi,simulations=0", "option simulations=0 of agent"),
        ("gumbel:wasabi,considered=-1", "option considered=-1"),
        ("gumbel:wasabi,rollout=greedy", "allowed: heuristic, random"),
        ("gumbel:wasabi,depth=two", "is not an integer"),
        ("gumbel:wasabi,simulation=8", "simulation"),
        ("gumbel:tahiti", "not wasabi"),
    ],
)
def test_bad_options_are_one_clear_error(spec, message):
    with pytest.raises(InvalidConfigError, match=message):
        make_agent(spec, "wasabi")


def test_specs_with_gumbel_options_split_without_torch():
    assert split_agent_specs("gumbel:wasabi,simulations=8,depth=2,heuristic") == [
        "gumbel:wasabi,simulations=8,depth=2",
        "heuristic",
    ]
    assert gumbel.SPEC_OPTIONS == gumbel.GUMBEL_OPTIONS


def test_expert_iterations_labels_take_the_improved_policy_and_mix_the_root_value():
    from boardgame_envs.agents.policy_value import load_net
    from boardgame_envs.training.exit.labelled_games import GameTask, net_bytes, play_and_label

    game = "wasabi"
    nets = {"current": net_bytes(load_net(game, game=game)[0])}

    def labelled(mix: float) -> dict:
        task = GameTask(
            game=game,
            num_players=2,
            seed=11,
            learner_seat=0,
            learner="heuristic",
            opponents=("heuristic",),
            search="gumbel:{net},simulations=16",
            label_share=1.0,
            play="searched",
            target="visits",
            nets=nets,
            value_mix=mix,
        )
        return play_and_label(task)

    outcome_only, mixed = labelled(0.0), labelled(0.5)
    assert len(mixed["policy"]) > 5
    assert np.allclose(mixed["policy"].sum(axis=1), 1.0, atol=1e-5)
    assert (mixed["policy"][~mixed["mask"]] == 0).all()
    assert (mixed["policy"] < 1).any()  # soft targets, not the searched move alone
    assert np.array_equal(outcome_only["policy"], mixed["policy"])  # the same games
    outcome = outcome_only["value"][:, 0]
    assert len(set(outcome.tolist())) == 1  # every sample: the game's outcome
    roots = 2 * mixed["value"][:, 0] - outcome  # value = (outcome + root) / 2
    assert (np.abs(roots) <= 1 + 1e-6).all() and len(set(roots.tolist())) > 1
    assert np.array_equal(outcome_only["value"][:, 1], mixed["value"][:, 1])


def test_a_labelled_game_is_the_same_in_any_worker():
    """A task's labels depend on the task alone (what makes --workers K and Ray give the same
    network): the same arrays from a fresh worker's agents."""
    from boardgame_envs.agents.policy_value import load_net
    from boardgame_envs.training.exit import labelled_games

    game = "factors_multiples"
    task = labelled_games.GameTask(
        game=game,
        num_players=2,
        seed=4,
        learner_seat=1,
        learner="heuristic",
        opponents=("heuristic",),
        search="gumbel:{net},simulations=16,noise=1",
        label_share=1.0,
        play="searched",
        target="visits",
        nets={"current": labelled_games.net_bytes(load_net(game, game=game)[0])},
        value_mix=0.5,
    )
    first = labelled_games.play_and_label(task)
    labelled_games._WORKER_AGENTS.clear()  # a new worker builds its agents anew
    second = labelled_games.play_and_label(task)
    for key in ("obs", "mask", "policy", "value"):
        assert np.array_equal(first[key], second[key]), key
    assert len(first["policy"]) > 3
