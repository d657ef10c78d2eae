"""The policy-value network and its two agents: ``net:`` (the policy alone) and
``ismcts-net:`` (the search guided by it), on tiny untrained networks of every game."""

from __future__ import annotations

import re

import numpy as np
import pytest
import torch

from boardgame_envs.agents.base import RandomAgent
from boardgame_envs.agents.policy_value import (
    MASKED_LOGIT,
    NetAgent,
    NumpyForward,
    PolicyValueNet,
    absolute_values,
    encode_view,
    load_net,
    make_hint_agent,
    relative_returns,
    save_net,
    shipped_nets,
)
from boardgame_envs.agents.search_net import (
    NetSearchAgent,
    net_search_defaults,
    search_policy_target,
)
from boardgame_envs.agents.specs import make_agent, split_agent_specs
from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.registry import GAMES, make_rules
from boardgame_envs.training.exit.recipes import exit_recipe
from tests.test_search import CHEAP, positions, same_move_when_hidden_facts_change

#: A search small enough for tests: 8 iterations, none of the heuristic's checks.
TINY_SEARCH = f"{CHEAP},iterations=8,depth=4"


@pytest.fixture(autouse=True)
def one_thread():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture(scope="module")
def net_files(tmp_path_factory):
    """{(game, players): the .pt file of a tiny untrained network}, at 2 players and at the
    largest table of each game; hinted by the heuristic where the game's recipe is."""
    folder = tmp_path_factory.mktemp("nets")
    files = {}
    for game in GAMES:
        rules = make_rules(game)
        for players in sorted({2, rules.max_players}):
            torch.manual_seed(len(files))
            hint = exit_recipe(game)["hint"]
            net = PolicyValueNet(game, players, hidden=16, hint=hint, channels=4, plane_features=16)
            files[game, players] = save_net(net, folder / f"{game}_{players}p.pt")
    return files


def play(rules, agents, seed, limit=None):
    """A whole game (or its first ``limit`` moves); every move checked against the legal
    moves. Returns (state, actions)."""
    state = rules.new_state(len(agents), seed=seed)
    for seat, agent in enumerate(agents):
        agent.reset(seed + seat)
    actions = []
    while not state.is_terminal() and len(actions) != limit:
        view = state.view(state.current_player)
        action = agents[state.current_player].act(view)
        assert action in view.legal_actions()
        state.apply(action)
        actions.append(action)
    return state, actions


# -- the network ------------------------------------------------------------------------------
@pytest.mark.parametrize("game", list(GAMES))
def test_save_and_load_give_the_same_network(game, net_files, tmp_path):
    path = net_files[game, 2]
    net, extra = load_net(path, game=game)
    state = positions(game, 2, seed=3, limit=1)[0]
    observation, mask = encode_view(state.view(state.current_player), make_hint_agent(net, seed=0))
    assert observation.dtype == np.float32 and mask.dtype == bool
    copy_path = save_net(net, tmp_path / "copy.pt", extra={"iteration": 3, "note": "x"})
    copy, copy_extra = load_net(copy_path, game=game)
    assert copy.config == net.config and copy_extra == {"iteration": 3, "note": "x"}
    assert extra == {}
    first, second = (
        net.evaluate(observation[None], mask[None]),
        copy.evaluate(observation[None], mask[None]),
    )
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(TypeError, match=r"extra\['run'\] is PosixPath"):
        save_net(net, tmp_path / "bad.pt", extra={"run": tmp_path})
    assert not (tmp_path / "bad.pt").exists()
    # the file is plain data: torch's safe loader reads it
    payload = torch.load(path, weights_only=True)
    assert payload["format"] == "boardgame-envs-net/1" and payload["config"]["game"] == game


@pytest.mark.parametrize("game", list(GAMES))
def test_outputs_are_masked_logits_and_bounded_values(game, net_files):
    net, _ = load_net(net_files[game, 2], game=game)
    states = positions(game, 2, seed=5, every=3, limit=4)
    hint = make_hint_agent(net, seed=0)
    encoded = [encode_view(s.view(s.current_player), hint) for s in states]
    observations = torch.as_tensor(np.stack([o for o, _ in encoded]))
    masks = torch.as_tensor(np.stack([m for _, m in encoded]))
    with torch.no_grad():
        logits, values = net(observations, masks)
    assert logits.shape == masks.shape and values.shape == (len(states), 2)
    assert torch.isfinite(logits).all() and (logits[~masks] == MASKED_LOGIT).all()
    assert (logits[masks] > MASKED_LOGIT / 2).all()
    assert (values.abs() <= 1).all()
    probabilities, _ = net.evaluate(observations.numpy(), masks.numpy())
    np.testing.assert_allclose(probabilities.sum(axis=1), 1, rtol=1e-5)
    assert (probabilities[~masks.numpy()] == 0).all()


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize(
    "shape",
    [
        dict(hidden=16, layers=1, depth=0),
        dict(hidden=24, layers=3, depth=2, channels=5),
        dict(hidden=16, hint="heuristic"),
    ],
    ids=["shallow", "deep", "hinted"],
)
def test_the_numpy_forward_pass_equals_torchs(game, shape):
    torch.manual_seed(7)
    net = PolicyValueNet(game, 2, **shape)
    with torch.no_grad():  # larger weights than the initial ones: every unit matters
        for parameter in net.parameters():
            parameter.mul_(3.0)
    forward = NumpyForward(net)
    hint = make_hint_agent(net, seed=0)
    for state in positions(game, 2, seed=11, every=5, limit=4):
        observation, mask = encode_view(state.view(state.current_player), hint)
        expected, expected_values = net.evaluate(observation[None], mask[None])
        probabilities, values = forward.evaluate(observation, mask)
        np.testing.assert_allclose(probabilities, expected[0], rtol=1e-4, atol=1e-6)
        np.testing.assert_allclose(values, expected_values[0], rtol=1e-4, atol=1e-6)
        assert (probabilities[~mask] == 0).all()
    # The batched pass: several views at once, row by row the same.
    encoded = [
        encode_view(state.view(state.current_player), hint)
        for state in positions(game, 2, seed=12, every=3, limit=5)
    ]
    observations = np.stack([observation for observation, _ in encoded])
    masks = np.stack([mask for _, mask in encoded])
    expected, expected_values = net.evaluate(observations, masks)
    probabilities, values = forward.evaluate_batch(observations, masks)
    assert probabilities.shape == expected.shape and values.shape == expected_values.shape
    np.testing.assert_allclose(probabilities, expected, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(values, expected_values, rtol=1e-4, atol=1e-6)
    assert (probabilities[~masks] == 0).all()


@pytest.mark.parametrize("game", list(GAMES))
def test_a_fresh_hinted_network_plays_the_heuristics_moves(game, tmp_path):
    """The hint's weight starts far above a fresh network's own logits: before any training
    a hinted network is the heuristic (same seed, same moves, random tie-breaks included)."""
    torch.manual_seed(3)
    path = save_net(PolicyValueNet(game, 2, hint="heuristic"), tmp_path / "hinted.pt")
    net, _ = load_net(path, game=game)
    assert net.config["hint"] == "heuristic" and net.hint_weight.item() == 4.0
    agent, heuristic = make_agent(f"net:{path}", game), make_agent("heuristic", game)
    agent.reset(5)
    heuristic.reset(5)
    states = positions(game, 2, seed=13, every=3, limit=8)
    for state in states:
        view = state.view(state.current_player)
        assert agent.act(view) == heuristic.act(view)
    observation, _ = agent.encode(states[0].view(states[0].current_player))
    assert observation.shape == (net.config["observation_size"],)
    unhinted = PolicyValueNet(game, 2).config["observation_size"]
    assert net.config["observation_size"] == unhinted + net.action_size


def test_a_network_with_an_unknown_hint_is_refused():
    allowed = r"hint='random' is not allowed; allowed: none or heuristic"
    with pytest.raises(InvalidConfigError, match=allowed):
        PolicyValueNet("wasabi", 2, hint="random")


def test_values_are_ordered_from_the_viewing_seat():
    returns = [0.5, -1.0, 0.25, 0.0]
    relative = relative_returns(returns, seat=2)
    assert relative.tolist() == [0.25, 0.0, 0.5, -1.0]  # seat 2, then 3, 0, 1
    assert absolute_values(relative, seat=2).tolist() == returns


# -- net: the policy alone --------------------------------------------------------------------
@pytest.mark.parametrize("game", list(GAMES))
def test_net_agent_plays_whole_games_legally_at_two_and_at_the_largest_table(game, net_files):
    rules = make_rules(game)
    for players in sorted({2, rules.max_players}):
        spec = f"net:{net_files[game, players]}"
        heuristics = [make_agent("heuristic", game) for _ in range(players - 1)]
        state, _ = play(rules, [make_agent(spec, game), *heuristics], seed=9)
        assert state.is_terminal()
    sampling = make_agent(f"net:{net_files[game, 2]},sample=1", game)
    _, first = play(rules, [sampling, RandomAgent()], seed=4, limit=60)
    _, again = play(rules, [sampling, RandomAgent()], seed=4, limit=60)
    assert first == again  # sample=1 draws from the agent's own seeded generator


@pytest.mark.parametrize("game", list(GAMES))
def test_net_agent_reads_only_its_own_view(game, net_files):
    spec = f"net:{net_files[game, 2]}"
    checked = same_move_when_hidden_facts_change(
        game, spec, seed=11, every=5, limit=4, agent_seed=1
    )
    assert checked >= 2


# -- ismcts-net: the search guided by the network ---------------------------------------------
# One game in make test; every game in make test-all (the slow ones).
@pytest.mark.parametrize(
    "game",
    [g if g == "factors_multiples" else pytest.param(g, marks=pytest.mark.slow) for g in GAMES],
)
def test_net_search_plays_legally_and_is_reproducible(game, net_files):
    """A whole game against the heuristic; the same seeds play the same moves again."""
    rules = make_rules(game)
    spec = f"ismcts-net:{net_files[game, 2]},{TINY_SEARCH}"
    state, actions = play(rules, [make_agent(spec, game), make_agent("heuristic", game)], 21)
    assert state.is_terminal()
    _, again = play(rules, [make_agent(spec, game), make_agent("heuristic", game)], 21, limit=40)
    assert again == actions[:40]


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("batch", [1, 4])
def test_net_search_reads_only_its_own_view(game, batch, net_files):
    spec = f"ismcts-net:{net_files[game, 2]},{TINY_SEARCH},value=0.5,batch={batch}"
    checked = same_move_when_hidden_facts_change(
        game, spec, seed=11, every=7, limit=3, agent_seed=2, iterations=8
    )
    assert checked >= 2


@pytest.mark.parametrize("game", ["factors_multiples", "tahiti"])
def test_a_batched_search_reads_its_leaves_together_and_counts_every_iteration(game, net_files):
    """batch=8: 30 iterations read by the network in ceil(30 / 8) passes (plus the root's),
    every visit backed up (the virtual losses all made good), legal and reproducible moves."""
    rules = make_rules(game)
    spec = f"ismcts-net:{net_files[game, 2]},{TINY_SEARCH},iterations=30,batch=8"
    agent = make_agent(spec, game)
    checked = 0
    for state in positions(game, 2, seed=4, every=3, limit=6):
        view = state.view(state.current_player)
        if len(view.legal_actions()) < 2:
            continue
        agent.reset(9)
        action = agent.act(view)
        assert action in view.legal_actions()
        root = agent.last_root
        if root is None:  # a phase the search leaves to the heuristic
            continue
        assert agent.last_iterations == 30 and root.visits == 30
        assert sum(child.visits for child in root.children.values()) == 30
        assert agent.last_passes <= 4 + 1 < agent.last_evaluations
        values = [node.total / node.visits for node in _nodes(root) if node.visits]
        assert all(-1.0 - 1e-9 <= value <= 1.0 + 1e-9 for value in values)  # no loss left
        agent.reset(9)
        assert agent.act(view) == action
        checked += 1
    assert checked >= 2
    state, _ = play(rules, [agent, make_agent("heuristic", game)], 5)
    assert state.is_terminal()


def _nodes(root):
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.children.values())


def test_the_prior_steers_the_tree_and_value_one_runs_no_rollout(net_files):
    """A network that puts nearly all its prior on one move, with a value head that says 0
    everywhere: the tree spends its visits on that move, and with value=1 every leaf is the
    network's (one forward pass an iteration, no rollout)."""
    game = "wasabi"
    state = next(
        p for p in positions(game, 2, seed=2, every=1, limit=30) if len(p.legal_actions()) > 5
    )
    view = state.view(state.current_player)
    favourite = view.legal_actions()[3]
    net, _ = load_net(net_files[game, 2], game=game)
    with torch.no_grad():
        net.policy_head.weight.zero_()
        net.policy_head.bias.zero_()
        net.policy_head.bias[favourite] = 8.0
        net.value_head.weight.zero_()
        net.value_head.bias.zero_()
    agent = make_agent(f"ismcts-net:{net_files[game, 2]},{TINY_SEARCH},iterations=30,value=1", game)
    agent.net = net

    def no_rollout(state):
        raise AssertionError("value=1 must not roll out")

    agent._leaf_rewards = no_rollout
    agent.reset(0)
    assert agent.act(view) == favourite
    visits = {a: child.visits for a, child in agent.last_root.children.items()}
    assert visits[favourite] > 30 / 2
    assert agent.last_evaluations <= 30 + 1
    target = search_policy_target(agent, view, favourite)
    assert target[favourite] == pytest.approx(visits[favourite] / 30)


@pytest.mark.parametrize("game", ["tahiti", "cornucopia"])
def test_search_policy_target_is_a_distribution_over_the_legal_moves(game, net_files):
    agent = make_agent(f"ismcts-net:{net_files[game, 2]},{TINY_SEARCH}", game, seed=3)
    heuristic_phase = make_agent(
        f"ismcts-net:{net_files[game, 2]},{TINY_SEARCH},phases={make_rules(game).phases[0]}",
        game,
        seed=3,
    )
    seen_tree = seen_one_hot = 0
    for state in positions(game, 2, seed=6, every=2, limit=8):
        view = state.view(state.current_player)
        mask = view.legal_action_mask()
        for searcher in (agent, heuristic_phase):
            action = searcher.act(view)
            target = search_policy_target(searcher, view, action)
            assert target.dtype == np.float32 and target.shape == mask.shape
            assert target.sum() == pytest.approx(1.0, abs=1e-6)
            assert (target[~mask] == 0).all() and (target >= 0).all()
            if searcher.last_root is None:  # no tree searched: the move played
                assert target[action] == 1.0
                seen_one_hot += 1
            else:
                visits = searcher.last_root.children[action].visits
                assert target[action] == pytest.approx(visits / searcher.last_iterations)
                seen_tree += 1
    assert seen_tree and seen_one_hot
    with pytest.raises(InvalidConfigError, match="is not legal in this view"):
        search_policy_target(agent, view, int(np.flatnonzero(~mask)[0]))


def test_search_policy_target_is_the_move_played_where_the_check_overrules_the_tree():
    """A verified search plays the heuristic's move unless the tree's choice beats it over
    paired games; where it does not, the tree's visits do not describe the decision."""
    searcher = make_agent("ismcts:iterations=24,depth=4,verify=4,guard=0,z=1", "tahiti", seed=5)
    overruled = followed = 0
    for state in positions("tahiti", 2, seed=8, every=1, limit=60):
        view = state.view(state.current_player)
        action = searcher.act(view)
        if searcher.last_root is None:
            continue
        target = search_policy_target(searcher, view, action)
        if searcher.last_tree_choice != action:
            assert target[action] == 1.0
            overruled += 1
        else:
            visits = searcher.last_root.children[action].visits
            assert target[action] == pytest.approx(visits / searcher.last_iterations)
            assert target[action] == target.max()
            followed += 1
    assert overruled and followed


def test_net_search_defaults_add_the_network_to_the_games_search_defaults(net_files):
    agent = make_agent(f"ismcts-net:{net_files['tahiti', 2]}", "tahiti")
    assert isinstance(agent, NetSearchAgent)
    defaults = net_search_defaults("tahiti")
    assert agent.options.iterations == defaults["iterations"]
    assert (agent.prior_weight, agent.value_weight) == (defaults["prior"], defaults["value"])
    given = make_agent(
        f"ismcts-net:{net_files['tahiti', 2]},iterations=5,prior=3,value=1", "tahiti"
    )
    assert (given.options.iterations, given.prior_weight, given.value_weight) == (5, 3.0, 1.0)
    assert isinstance(make_agent(f"net:{net_files['tahiti', 2]}", "tahiti"), NetAgent)


def test_the_incumbent_is_the_move_a_departure_must_beat(net_files):
    # Paired comparisons that never depart (z = 1000 standard errors): the move played is
    # the incumbent's, the heuristic's or the network's. The tiny network is unhinted here,
    # so the two differ.
    game, path = "factors_multiples", net_files["factors_multiples", 2]
    never_departs = f"ismcts-net:{path},root=paired,rollout=heuristic,iterations=2,z=1000,seconds=0"
    own = {
        "heuristic": make_agent("heuristic", game),
        "net": make_agent(f"net:{path}", game),
    }
    differ = 0
    for state in positions(game, 2, seed=4, every=3, limit=12):
        view = state.view(state.current_player)
        for incumbent, reference in own.items():
            agent = make_agent(f"{never_departs},incumbent={incumbent}", game, seed=1)
            assert agent.act(view) == reference.act(view)
        differ += own["heuristic"].act(view) != own["net"].act(view)
    assert differ > 0
    assert make_agent(f"ismcts-net:{path}", game).incumbent == "heuristic"  # the default


def test_agent_lists_keep_the_networks_options_together():
    text = (
        "ismcts-net:a.pt,iterations=8,prior=2,value=1,heuristic,"
        "net:wasabi,sample=1,device=cpu,random"
    )
    assert split_agent_specs(text) == [
        "ismcts-net:a.pt,iterations=8,prior=2,value=1",
        "heuristic",
        "net:wasabi,sample=1,device=cpu",
        "random",
    ]


# -- bad input ------------------------------------------------------------------------------------
def bad_specs(folder, files):
    wasabi, tahiti = files["wasabi", 2], files["tahiti", 2]
    (folder / "empty_run").mkdir()
    (folder / "junk.pt").write_text("not a network")
    torch.save({"format": "something-else/3"}, folder / "other.pt")
    return [
        ("net:", "names no network; allowed: net:<game>"),
        ("net:nowhere.pt", "no network 'nowhere.pt': no such file or run directory"),
        ("net:tahiti@9p", "no network 'tahiti@9p'"),
        (f"net:{folder / 'empty_run'}", "(no net.pt); allowed: a .pt file, or a training run"),
        (f"net:{folder / 'junk.pt'}", "is not a readable network file"),
        (f"net:{folder / 'other.pt'}", "is not a network file of format 'boardgame-envs-net/1'"),
        (f"net:{tahiti}", "is for tahiti, not wasabi; allowed: a network of wasabi"),
        (f"net:{wasabi},sample=2", "option sample='2' of agent"),
        (f"net:{wasabi},temperature=1", "option 'temperature=1' of agent"),
        (f"net:{wasabi},device=tpu", "option device='tpu' of agent"),
        ("ismcts-net:", "names no network; allowed: ismcts-net:<game>"),
        (f"ismcts-net:{tahiti}", "is for tahiti, not wasabi"),
        (f"ismcts-net:{wasabi},prior=0", "option prior=0.0 of agent"),
        (f"ismcts-net:{wasabi},prior=strong", "option prior='strong' of agent"),
        (f"ismcts-net:{wasabi},value=1.5", "option value=1.5 of agent"),
        (f"ismcts-net:{wasabi},value=nan", "option value=nan of agent"),
        (f"ismcts-net:{wasabi},speed=3", "option 'speed=3' of agent"),
        (f"ismcts-net:{wasabi},incumbent=best", "option incumbent='best' of agent"),
        (f"ismcts-net:{wasabi},batch=0", "option batch=0 of agent"),
        (f"ismcts-net:{wasabi},batch=1000", "allowed: an integer from 1 to 256"),
        (f"ismcts-net:{wasabi},batch=many", "option batch='many' of agent"),
        (f"ismcts-net:{wasabi},iterations=-1", "ismcts option iterations=-1 is out of range"),
        (f"ismcts-net:{wasabi},rollout=greedy", "ismcts option rollout='greedy' is unknown"),
    ]


def test_bad_specs_name_the_value_and_what_is_allowed(net_files, tmp_path):
    for spec, message in bad_specs(tmp_path, net_files):
        with pytest.raises(InvalidConfigError, match=re.escape(message)):
            make_agent(spec, "wasabi")


def test_a_network_for_another_table_size_is_refused_when_it_plays(net_files):
    rules = make_rules("wasabi")
    for spec in (
        f"net:{net_files['wasabi', 2]}",
        f"ismcts-net:{net_files['wasabi', 2]},{TINY_SEARCH}",
    ):
        agents = [make_agent(spec, "wasabi"), RandomAgent(), RandomAgent()]
        with pytest.raises(
            InvalidConfigError,
            match="its network is for 2 players, this game has 3; allowed: a network trained "
            r"at 3 players \(none is shipped; train one with --algo exit --num-players 3\)",
        ):
            play(rules, agents, seed=1)


def test_the_table_size_error_names_a_shipped_network_that_fits():
    rules = make_rules("wasabi")
    agents = [make_agent("net:wasabi", "wasabi")] + [RandomAgent() for _ in range(3)]
    with pytest.raises(InvalidConfigError, match=r"\(e\.g\. the shipped net:wasabi@4p\)"):
        play(rules, agents, seed=1)


def test_bad_network_shapes_are_refused():
    with pytest.raises(
        InvalidConfigError, match="num_players=6 is not allowed for wasabi; allowed: 2 to 4"
    ):
        PolicyValueNet("wasabi", 6)
    with pytest.raises(InvalidConfigError, match="network option hidden=0 is not allowed"):
        PolicyValueNet("tahiti", 2, hidden=0)
    with pytest.raises(InvalidConfigError, match="network option kernels=3 is unknown"):
        PolicyValueNet("tahiti", 2, kernels=3)
    with pytest.raises(InvalidConfigError, match="unknown game 'chess'"):
        PolicyValueNet("chess", 2)


# -- the shipped network ----------------------------------------------------------------------
def shipped_networks() -> list[tuple[str, str, int]]:
    """(name, game, players) of every shipped network: ``<game>`` and ``<game>@<n>p``."""
    found = []
    for name in sorted(shipped_nets()):
        game, _, size = name.partition("@")
        found.append((name, game, int(size.rstrip("p")) if size else 2))
    return found


def test_every_game_has_a_shipped_network_for_two_players():
    assert {game for name, game, players in shipped_networks() if players == 2} == set(GAMES)


@pytest.mark.parametrize("name, game, players", shipped_networks())
def test_the_shipped_network_loads_by_name_from_any_folder_and_plays(
    name, game, players, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    agent = make_agent(f"net:{name}", game, seed=0)
    rules = make_rules(game)
    state = rules.new_state(players, seed=11)
    while not state.is_terminal():
        view = state.view(state.current_player)
        action = agent.act(view)
        assert action in view.legal_actions()
        state.apply(action)
    with pytest.raises(InvalidConfigError, match=f"shipped: .*{game}"):
        make_agent(f"net:{game}@9p", game)
