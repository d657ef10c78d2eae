"""The ISMCTS agent: options, reproducibility, its own view only, legal play in every game."""

from __future__ import annotations

import importlib
import re

import numpy as np
import pytest

from boardgame_envs.agents.base import RandomAgent
from boardgame_envs.agents.search import ISMCTSAgent, SearchOptions, parse_options
from boardgame_envs.agents.specs import make_agent, split_agent_specs
from boardgame_envs.core.native import native_games
from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.registry import GAMES, make_rules
from boardgame_envs.training.cli import main as cli_main
from boardgame_envs.training.evaluation.tournament import play_game, run_tournament

#: Each game's resampler of what a seat cannot see (from its hidden-information tests).
RESAMPLERS = {
    "factors_multiples": "tests.factors_multiples.test_hidden_and_snapshots:resample_hidden",
    "cornucopia": "tests.cornucopia.test_hidden_and_snapshots:resample_hidden",
    "carcassonne_castle": "tests.carcassonne_castle.test_hidden_and_snapshots:resample_hidden",
    "tahiti": "tests.tahiti.test_hidden_and_snapshots:resample_hidden",
    "wasabi": "tests.wasabi.test_hidden_and_snapshots:resample_recipes",
}


#: Options that make a search cheap and game-independent (the games' defaults differ).
CHEAP = "seconds=0,rollout=random,first=0,widen=0,guard=0,phases=,verify=0,root=tree,quiet=,z=0"


def resampler(game: str):
    module, _, name = RESAMPLERS[game].partition(":")
    return getattr(importlib.import_module(module), name)


def positions(game: str, num_players: int, seed: int, every: int = 7, limit: int = 6):
    """Live positions along a seeded random game, with two or more legal actions (Python
    engine states: the resamplers edit their fields)."""
    rules = make_rules(game, engine="python")
    state = rules.new_state(num_players, seed=seed)
    rng = np.random.default_rng(seed)
    found, step = [], 0
    while not state.is_terminal() and len(found) < limit:
        if step % every == 0 and len(state.legal_actions()) > 1:
            found.append(state.clone())
        state.apply(int(rng.choice(state.legal_actions())))
        step += 1
    return found


def same_move_when_hidden_facts_change(
    game: str,
    spec: str,
    seed: int,
    every: int,
    limit: int,
    agent_seed: int,
    iterations: int | None = None,
) -> int:
    """Asserts that agent ``spec`` plays the same move twice from a position's view, once
    from a copy whose hidden facts were resampled, and once from the same position on the
    native engine where it is built; returns the positions checked."""
    resample = resampler(game)
    rng = np.random.default_rng(seed)
    checked = 0
    for state in positions(game, 2, seed=seed, every=every, limit=limit):
        seat = state.current_player
        other = resample(state, seat, rng)
        copies = [state, state, other]
        if game in native_games():
            copies.append(make_rules(game, engine="native").from_reference(state))
        moves = []
        for position in copies:
            agent = make_agent(spec, game)
            agent.reset(agent_seed)
            moves.append(agent.act(position.view(seat)))
            if iterations is not None:
                assert agent.last_iterations == iterations
        assert len(set(moves)) == 1, f"{game}: moves {moves}"
        checked += 1
    return checked


# -- options and specs ------------------------------------------------------------------------
def test_spec_with_options_builds_the_agent_they_describe():
    agent = make_agent("ismcts:iterations=40,seconds=0,rollout=heuristic,depth=12,c=1.5", "wasabi")
    assert isinstance(agent, ISMCTSAgent)
    assert agent.options.iterations == 40 and agent.options.seconds == 0
    assert agent.options.rollout == "heuristic" and agent.options.depth == 12
    assert agent.options.c == 1.5 and agent.heuristic is not None


def test_plain_spec_uses_the_games_defaults():
    agent = make_agent("ismcts", "tahiti")
    assert agent.options == parse_options("", "tahiti")[0]
    assert agent.options.iterations or agent.options.seconds


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "speed=3",
            "ismcts option 'speed=3' is unknown; did you mean 'seed=3'? write name=value",
        ),
        ("iterations", "ismcts option 'iterations' is unknown"),
        ("iterations=0,seconds=0", "ismcts needs a budget"),
        ("iterations=-5", "ismcts option iterations=-5 is out of range: >= 0"),
        ("seconds=-0.1", "ismcts option seconds=-0.1 is out of range: >= 0"),
        ("seconds=nan", "ismcts option seconds=nan is out of range"),
        ("iterations=1.5", "ismcts option iterations='1.5' is not a valid int"),
        ("seconds=fast", "ismcts option seconds='fast' is not a valid float"),
        ("rollout=greedy", "ismcts option rollout='greedy' is unknown; allowed: random, heuristic"),
        ("epsilon=2", "ismcts option epsilon=2.0 is out of range: 0 to 1"),
        ("first=2", "ismcts option first=2: allowed 0 or 1"),
        ("rollout=none,depth=5", "ismcts option depth needs a rollout"),
        ("root=flat", "ismcts option root='flat' is unknown; allowed: tree, paired"),
        ("root=paired,rollout=random", "ismcts option root=paired improves on the heuristic"),
        ("z=-1", "ismcts option z=-1.0 is out of range: >= 0"),
        ("margin=1.5", "ismcts option margin=1.5 is out of range: 0 to 1"),
        ("finish=2.5", "ismcts option finish='2.5' is not a valid int"),
        ("verify=-2", "ismcts option verify=-2 is out of range: >= 0"),
        ("late=-1", "ismcts option late=-1 is out of range: >= 0"),
        ("late=4,late_iterations=0", "ismcts option late_iterations=0 is out of range: >= 1"),
        ("late_widen=2.5", "ismcts option late_widen='2.5' is not a valid int"),
        ("late=4", "late=4: factors_multiples does not count its turns left; allowed only in"),
        ("mid=4", "mid=4: factors_multiples does not count its turns left; allowed only in"),
        ("mid=12,mid_iterations=0", "ismcts option mid_iterations=0 is out of range: >= 1"),
        ("mid_widen=-1", "ismcts option mid_widen=-1 is out of range: >= 0"),
        ("mid_phases=BID", "ismcts option mid_phases='BID': 'BID' is not a decision phase"),
        ("phases=PLAY+BID", "ismcts option phases='PLAY+BID': 'BID' is not a decision phase"),
        ("quiet=BID,depth=3", "ismcts option quiet='BID': 'BID' is not a decision phase"),
        ("quiet=PLAY,depth=0", "ismcts option quiet needs a rollout cut by depth"),
        ("quiet=PLAY,rollout=none,depth=0", "ismcts option quiet needs a rollout cut by depth"),
    ],
)
def test_bad_options_name_what_is_allowed(text, message):
    with pytest.raises(InvalidConfigError, match=re.escape(message)):
        make_agent(f"ismcts:{text}", "factors_multiples")


def test_options_of_the_wrong_type_are_refused_in_python_too():
    with pytest.raises(InvalidConfigError, match="iterations=True must be an integer"):
        SearchOptions(iterations=True)
    with pytest.raises(InvalidConfigError, match="seconds='1' must be a number"):
        SearchOptions(seconds="1")


def test_agent_lists_keep_search_options_together():
    text = "ismcts:iterations=50,rollout=random,heuristic,ismcts,random"
    assert split_agent_specs(text) == [
        "ismcts:iterations=50,rollout=random",
        "heuristic",
        "ismcts",
        "random",
    ]
    assert split_agent_specs("heuristic=0.5,random=0.5") == ["heuristic=0.5", "random=0.5"]


def test_command_line_refuses_a_bad_search_option_with_exit_2(capsys):
    code = cli_main(["eval", "tahiti", "--agents", "ismcts:budget=3,random"])
    assert code == 2
    assert "ismcts option 'budget=3' is unknown" in capsys.readouterr().err


# -- behaviour ----------------------------------------------------------------------------------
@pytest.mark.parametrize("game", list(GAMES))
def test_decision_is_reproducible_and_reads_only_its_own_view(game):
    """Same view and seed give the same move, and so does a state whose hidden facts were
    resampled: the agent cannot see them."""
    spec = f"ismcts:{CHEAP},iterations=40,depth=10"
    checked = same_move_when_hidden_facts_change(
        game, spec, seed=11, every=7, limit=4, agent_seed=1234, iterations=40
    )
    assert checked >= 2


@pytest.mark.parametrize("game", list(GAMES))
def test_plays_whole_games_legally_at_every_table_size(game):
    rules = make_rules(game)
    for n in sorted({rules.min_players, rules.max_players}):
        agents = [make_agent(f"ismcts:{CHEAP},iterations=4,depth=6", game)] + [
            RandomAgent() for _ in range(n - 1)
        ]
        state = play_game(rules, agents, seed=5)
        assert state.is_terminal()


def test_heuristic_rollouts_and_heuristic_first_moves_play_legally():
    rules = make_rules("factors_multiples")
    agent = make_agent(
        "ismcts:iterations=10,seconds=0,rollout=heuristic,first=1,epsilon=0.2", "factors_multiples"
    )
    state = play_game(rules, [agent, make_agent("heuristic", "factors_multiples")], seed=2)
    assert state.is_terminal()


def test_a_time_budget_stops_the_search():
    agent = make_agent("ismcts:iterations=0,seconds=0.05", "cornucopia")
    state = positions("cornucopia", 2, seed=1, limit=1)[0]
    agent.act(state.view(state.current_player))
    assert 1 <= agent.last_iterations < 100_000


def test_search_beats_random_in_carcassonne():
    """A real outcome, seeded: a small search against uniform random play."""
    spec = "ismcts:iterations=30,seconds=0,rollout=random,depth=6,first=0,widen=0,guard=0,verify=0"
    tournament = run_tournament(
        "carcassonne_castle", [spec, "random"], [2], games=12, seed=70_000, progress=False
    )
    assert tournament.result(spec, "random").win_share >= 0.75


def test_parallel_tournament_equals_one_process():
    specs = [f"ismcts:{CHEAP},iterations=10,depth=8", "heuristic", "random"]
    one = run_tournament("tahiti", specs, [2], games=4, seed=90, progress=False)
    two = run_tournament("tahiti", specs, [2], games=4, seed=90, progress=False, workers=2)
    rows = [
        (r.agent, r.opponent, r.wins, r.draws, r.losses, r.score_sum, r.decisions)
        for r in one.results
    ]
    assert rows == [
        (r.agent, r.opponent, r.wins, r.draws, r.losses, r.score_sum, r.decisions)
        for r in two.results
    ]
    assert one.ratings == two.ratings


def test_bad_worker_counts_are_refused():
    for workers in (0, -1, 1.5, True):
        with pytest.raises(InvalidConfigError, match="workers="):
            run_tournament("tahiti", ["heuristic", "random"], [2], games=1, workers=workers)


def test_widen_keeps_the_root_to_the_heuristics_best_placements():
    state = next(
        p
        for p in positions("carcassonne_castle", 2, seed=3, every=1, limit=40)
        if len(p.legal_actions()) > 10
    )
    view = state.view(state.current_player)
    agent = make_agent("ismcts:iterations=30,seconds=0,depth=4,widen=3", "carcassonne_castle")
    agent.reset(0)
    move = agent.act(view)
    values = agent.heuristic.placement_values(view)
    best = sorted(values, key=lambda a: -values[a])[:3]
    assert set(agent.last_root.children) == set(best) and move in best


def test_progressive_widening_bounds_the_children_and_tries_the_heuristic_first():
    state = next(
        p
        for p in positions("carcassonne_castle", 2, seed=3, every=1, limit=40)
        if len(p.legal_actions()) > 10
    )
    view = state.view(state.current_player)
    spec = "ismcts:iterations=16,seconds=0,depth=2,pw=0.5,first=1"
    agent = make_agent(spec, "carcassonne_castle")
    agent.reset(0)
    agent.act(view)
    root = agent.last_root
    assert 1 < len(root.children) <= 1 + 0.5 * 16**0.5
    first = next(iter(root.children))  # dicts keep insertion order
    heuristic = make_agent("heuristic", "carcassonne_castle")
    values = heuristic.placement_values(view)
    assert values[first] == max(values.values())


def test_a_full_guard_always_plays_the_heuristics_move():
    """Rewards lie in [-1, 1], so no search result beats the heuristic's move by 2."""
    heuristic = make_agent("heuristic", "factors_multiples")
    for state in positions("factors_multiples", 2, seed=8, every=3, limit=5):
        view = state.view(state.current_player)
        agent = make_agent("ismcts:iterations=20,seconds=0,depth=5,guard=2", "factors_multiples")
        agent.reset(0)
        assert agent.act(view) == heuristic.act(view)


@pytest.mark.parametrize("game", ["tahiti", "cornucopia"])
def test_phases_searches_only_the_phases_named(game):
    """Outside the named phases the agent plays the heuristic's move without searching;
    inside them it searches."""
    searched = make_rules(game).phases[-2]
    agent = make_agent(f"ismcts:{CHEAP},iterations=8,phases={searched}", game)
    heuristic = make_agent("heuristic", game)
    seen = set()
    for state in positions(game, 2, seed=3, every=2, limit=40):
        view = state.view(state.current_player)
        agent.reset(0)
        move = agent.act(view)
        seen.add(view.phase == searched)
        if view.phase == searched:
            assert agent.last_iterations == 8
        else:
            assert agent.last_iterations == 0
            assert move == heuristic.act(view)
    assert seen == {True, False}


# -- verify: a move other than the heuristic's must win its check -----------------------------
VERIFY = "seconds=0,iterations=12,rollout=heuristic,depth=4,first=0,guard=0,phases=,verify=6"


def test_verify_keeps_a_choice_only_when_it_beats_the_heuristics_move():
    """Where the search leaves the heuristic's move, its paired check came out above zero;
    with ``z=1000`` no check passes, so every move is the heuristic's."""
    game = "factors_multiples"  # its heuristic is deterministic: its move can be replayed
    heuristic = make_agent("heuristic", game)
    left = 0
    for state in positions(game, 2, seed=8, every=2, limit=30):
        view = state.view(state.current_player)
        own = heuristic.act(view)
        agent = make_agent(f"ismcts:{VERIFY}", game)
        agent.reset(0)
        if agent.act(view) != own:
            assert agent.last_verify_gain > 0
            left += 1
        strict = make_agent(f"ismcts:{VERIFY},z=1000", game)
        strict.reset(0)
        assert strict.act(view) == own
    assert left >= 1  # the check was reached and passed at least once


def test_verified_decisions_are_reproducible_and_read_only_their_own_view():
    spec = f"ismcts:{VERIFY},margin=0.5,z=1"
    checked = same_move_when_hidden_facts_change("tahiti", spec, 14, every=9, limit=3, agent_seed=7)
    assert checked == 3


# -- root=paired: one-step improvement of the heuristic ----------------------------------------
PAIRED = "root=paired,rollout=heuristic,seconds=0,iterations=6,depth=3,widen=4"


@pytest.mark.parametrize("game", ["carcassonne_castle", "factors_multiples"])
def test_paired_root_is_reproducible_and_reads_only_its_own_view(game):
    spec = f"ismcts:{PAIRED},finish=3,margin=0.3"
    checked = same_move_when_hidden_facts_change(
        game, spec, seed=12, every=5, limit=3, agent_seed=99, iterations=6
    )
    assert checked >= 2


def test_paired_root_scores_the_heuristics_best_placements_against_its_own_move():
    state = next(
        p
        for p in positions("carcassonne_castle", 2, seed=3, every=1, limit=40)
        if len(p.legal_actions()) > 10
    )
    view = state.view(state.current_player)
    agent = make_agent(f"ismcts:{PAIRED}", "carcassonne_castle")
    agent.reset(0)
    move = agent.act(view)
    values = agent.heuristic.placement_values(view)
    best = sorted(values, key=lambda a: -values[a])[:4]
    advantages = agent.last_advantages
    assert set(advantages) <= set(best) | {move} and len(advantages) >= 4
    own = next(a for a, gain in advantages.items() if gain == 0.0)
    assert move == own or advantages[move] > 0


def test_a_paired_root_with_a_full_guard_plays_the_heuristics_move():
    """Rewards lie in [-1, 1]: no advantage reaches 2, nor 1000 standard errors."""
    from boardgame_envs.carcassonne_castle.rules import PLACE

    heuristic = make_agent("heuristic", "carcassonne_castle")
    checked = 0
    for state in positions("carcassonne_castle", 2, seed=8, every=3, limit=6):
        view = state.view(state.current_player)
        for guard in ("guard=2", "z=1000"):
            agent = make_agent(f"ismcts:{PAIRED},{guard}", "carcassonne_castle")
            agent.reset(0)
            move = agent.act(view)
            if view.phase == PLACE:  # the heuristic's best value (ties broken at random)
                values = heuristic.placement_values(view)
                assert values[move] == max(values.values())
            else:
                assert move == heuristic.act(view)
            checked += 1
    assert checked >= 6


# -- quiet: truncated rollouts stop only where the static evaluation is sound -----------------
@pytest.mark.parametrize("root", ["tree", "paired"])
def test_quiet_rollouts_are_evaluated_only_at_the_phases_named(root):
    """Past ``depth`` a rollout goes on to the next decision of a quiet phase (Cornucopia's
    BID: the turn in play resolved), so every position the evaluation sees is one of them."""
    from boardgame_envs.cornucopia.rules import BID

    spec = f"ismcts:root={root},rollout=heuristic,seconds=0,iterations=6,depth=1,quiet=BID"
    phases = {}
    for quiet in (True, False):
        agent = make_agent(spec if quiet else spec.replace("quiet=BID", "quiet="), "cornucopia")
        evaluate = agent.evaluate
        seen = phases[quiet] = set()

        def recording(state, evaluate=evaluate, seen=seen):
            seen.add(state.phase)
            return evaluate(state)

        agent.evaluate = recording
        for state in positions("cornucopia", 2, seed=4, every=3, limit=12):
            agent.reset(0)
            agent.act(state.view(state.current_player))
    assert phases[True] == {BID}
    assert len(phases[False]) > 1  # without the option the same rollouts stop mid-turn


def test_cornucopias_default_is_reproducible_and_reads_only_its_own_view():
    """The default (paired moves, rollouts to the end of the turn) at a small budget."""
    checked = same_move_when_hidden_facts_change(
        "cornucopia", "ismcts:seconds=0,iterations=6", seed=5, every=3, limit=4, agent_seed=3
    )
    assert checked == 4


# -- late: paired rollouts to the end once few turns are left ---------------------------------
LATE = "seconds=0.000001,late=6,late_iterations=4,late_widen=5,margin=0"


def late_position(seed: int, late: int = 6):
    """A Carcassonne position with at most ``late`` tiles left and several legal moves."""
    return next(
        p
        for p in positions("carcassonne_castle", 2, seed=seed, every=1, limit=500)
        if p.stack_size <= late and len(p.legal_actions()) > 6
    )


def test_late_decisions_compare_the_best_moves_over_whole_games():
    state = late_position(seed=4)
    view = state.view(state.current_player)
    agent = make_agent(f"ismcts:{LATE}", "carcassonne_castle")
    agent.reset(0)
    move = agent.act(view)
    # every iteration ran although the time budget had passed: only late_iterations bounds it
    assert agent.last_iterations == 4
    values = agent.heuristic.placement_values(view)
    best = sorted(values, key=lambda a: -values[a])[:5]
    advantages = agent.last_advantages
    assert set(advantages) <= set(best) | {move} and len(advantages) >= 5
    # margin=0 and rollouts to the end: each value is an outcome (-1, 0 or 1), so four
    # paired differences sum to a whole number
    assert all(abs(4 * gain - round(4 * gain)) < 1e-9 for gain in advantages.values())
    assert move == next(a for a, gain in advantages.items() if gain == 0.0) or (
        advantages[move] > 0
    )


def test_before_the_late_turns_the_tree_decides():
    state = next(
        p
        for p in positions("carcassonne_castle", 2, seed=4, every=1, limit=40)
        if p.stack_size > 6 and len(p.legal_actions()) > 6
    )
    agent = make_agent(f"ismcts:{LATE},iterations=3", "carcassonne_castle")
    agent.reset(0)
    agent.act(state.view(state.current_player))
    assert agent.last_root is not None and agent.last_root.visits >= 1
    assert agent.last_advantages == {}


def mid_position(phase: str, seed: int = 4):
    """A Carcassonne position at ``phase`` with 7 to 12 tiles left and 3+ legal moves."""
    return next(
        p
        for s in range(seed, seed + 20)
        for p in positions("carcassonne_castle", 2, seed=s, every=1, limit=500)
        if 6 < p.stack_size <= 12 and p.phase == phase and len(p.legal_actions()) >= 3
    )


MID = f"{LATE},iterations=3,mid=12,mid_iterations=3,mid_widen=2,mid_phases="


def test_mid_decisions_play_fewer_candidates_out_to_the_end():
    view = (state := mid_position("PLACE")).view(state.current_player)
    agent = make_agent(f"ismcts:{MID}", "carcassonne_castle")
    agent.reset(0)
    move = agent.act(view)
    assert agent.last_iterations == 3 and agent.last_root is None
    values = agent.heuristic.placement_values(view)
    best = sorted(values, key=lambda a: -values[a])[:2]
    assert set(agent.last_advantages) <= set(best) | {move} and len(agent.last_advantages) >= 2
    assert all(abs(3 * gain - round(3 * gain)) < 1e-9 for gain in agent.last_advantages.values())


def test_mid_phases_leave_the_other_phases_to_the_tree():
    agent = make_agent(f"ismcts:{MID},mid_phases=FOLLOWER", "carcassonne_castle")
    agent.reset(0)
    place = mid_position("PLACE")
    agent.act(place.view(place.current_player))
    assert agent.last_root is not None and agent.last_advantages == {}
    follower = mid_position("FOLLOWER")
    agent.act(follower.view(follower.current_player))
    assert set(agent.last_advantages) == set(follower.legal_actions())  # mid_widen: placements


def test_late_decisions_are_reproducible_and_read_only_their_own_view():
    checked = same_move_when_hidden_facts_change(
        "carcassonne_castle",
        "ismcts:late=60,late_iterations=3,late_widen=4",
        seed=21,
        every=11,
        limit=3,
        agent_seed=5,
        iterations=3,
    )
    assert checked == 3


def test_carcassonne_turns_left_reads_a_state_and_its_view_alike():
    from boardgame_envs.agents.settings import game_settings

    left = game_settings("carcassonne_castle").turns_left
    for state in positions("carcassonne_castle", 2, seed=8, every=9, limit=5):
        view = state.view(state.current_player)
        assert left(state) == left(view) == len(state.stack)


def test_preset_v1_is_the_settings_tuned_on_the_python_engine():
    from boardgame_envs.agents.search import default_options
    from boardgame_envs.agents.settings import game_settings

    for game in GAMES:
        options, _ = parse_options("preset=v1", game)
        assert options == default_options(game, "v1")
        for name, value in game_settings(game).search_presets["v1"].items():
            assert getattr(options, name) == value
    options, seed = parse_options("preset=v1,iterations=5,seed=3", "wasabi")
    assert (options.iterations, options.verify, seed) == (5, 8, 3)  # given options override
    with pytest.raises(InvalidConfigError, match="preset='v9' is unknown; allowed: v1"):
        parse_options("preset=v9", "wasabi")
    agents = split_agent_specs("ismcts:preset=v1,seconds=0,heuristic")
    assert agents == ["ismcts:preset=v1,seconds=0", "heuristic"]
