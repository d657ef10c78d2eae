"""The heuristic plays legal moves from its view and beats a random player."""

from __future__ import annotations

from boardgame_envs.agents.base import RandomAgent
from boardgame_envs.agents.games.carcassonne_castle.heuristic import HeuristicAgent
from boardgame_envs.agents.specs import make_agent
from tests.carcassonne_castle.helpers import RULES


def play_game(seed: int, heuristic_seat: int) -> tuple[list[int], int]:
    agents = [RandomAgent(seed + 1), RandomAgent(seed + 2)]
    agents[heuristic_seat] = HeuristicAgent(seed)
    state = RULES.new_state(2, seed=seed)
    while not state.is_terminal():
        seat = state.current_player
        view = state.view(seat)
        action = agents[seat].act(view)
        assert view.legal_action_mask()[action]
        state.apply(action)
    return state.winners(), heuristic_seat


def test_heuristic_beats_random():
    results = [play_game(seed, seed % 2) for seed in range(16)]
    wins = sum(1 / len(winners) for winners, seat in results if seat in winners)
    assert wins >= 15


def test_heuristic_is_found_by_name():
    agent = make_agent("heuristic", "carcassonne_castle", seed=0, engine="python")
    assert isinstance(agent, HeuristicAgent)
