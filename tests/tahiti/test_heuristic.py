"""The heuristic agent: legal, view-only, and far better than random."""

from __future__ import annotations

import pytest

from boardgame_envs.agents.base import RandomAgent
from boardgame_envs.agents.games.tahiti.heuristic import HeuristicAgent
from boardgame_envs.agents.specs import make_agent
from tests.tahiti.helpers import RULES


def play(num_players: int, seed: int, heuristic_seat: int):
    agents = [
        HeuristicAgent(seed) if s == heuristic_seat else RandomAgent(seed * 7 + s)
        for s in range(num_players)
    ]
    state = RULES.new_state(num_players, seed=seed)
    while not state.is_terminal():
        seat = state.current_player
        action = agents[seat].act(state.view(seat))
        assert state.legal_action_mask()[action]
        state.apply(action)
    return state


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_heuristic_beats_random(num_players):
    games = 12
    wins = 0.0
    for seed in range(games):
        seat = seed % num_players
        state = play(num_players, seed, seat)
        assert not state.truncated and state.end_triggered  # it brings the season to its end
        winners = state.winners()
        wins += (seat in winners) / len(winners)
    assert wins / games >= 0.9


def test_heuristic_is_available_by_name():
    agent = make_agent("heuristic", "tahiti", seed=0, engine="python")
    assert isinstance(agent, HeuristicAgent)


def test_heuristic_handles_every_phase():
    """The rare Haumea step and the forced decisions too."""
    from tests.tahiti.test_rules import rare_case_position

    state = rare_case_position()
    agent = HeuristicAgent(0)
    for _ in range(40):
        if state.is_terminal():
            break
        action = agent.act(state.view(state.current_player))
        assert action in state.legal_actions()
        state.apply(action)
