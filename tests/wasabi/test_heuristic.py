"""The heuristic agent: legal moves from its view only, and better than random."""

from __future__ import annotations

from boardgame_envs.agents.base import RandomAgent
from boardgame_envs.agents.games.wasabi.heuristic import HeuristicAgent
from boardgame_envs.agents.specs import make_agent
from boardgame_envs.wasabi.data import recipe_id
from boardgame_envs.wasabi.rules import CHOP_TARGET
from tests.wasabi.helpers import CARD, CELL, KIND, RULES, table


def play(num_players: int, seed: int, heuristic_seat: int) -> list[float]:
    agents = [
        HeuristicAgent(seed) if s == heuristic_seat else RandomAgent(seed * 10 + s)
        for s in range(num_players)
    ]
    state = RULES.new_state(num_players, seed=seed)
    while not state.is_terminal():
        seat = state.current_player
        state.apply(agents[seat].act(state.view(seat)))  # apply raises on an illegal move
    return state.returns()


def test_heuristic_beats_random_at_every_player_count():
    for num_players in (2, 3, 4):
        games = 8
        mean = sum(play(num_players, g, g % num_players)[g % num_players] for g in range(games))
        assert mean / games > 0.6, num_players


def test_heuristic_is_found_by_name():
    assert isinstance(make_agent("heuristic", "wasabi", seed=0, engine="python"), HeuristicAgent)


def test_heuristic_completes_an_ideal_dish_when_it_can():
    state = table(
        2,
        board={(2, 3): "Salmon"},
        hands={0: "Rice Tuna Avocado"},
        menus={0: ["Salmon Nigiri", "Kappa Maki", "Dragon Roll"]},
    )
    agent = HeuristicAgent(0)
    assert agent.act(state.view(0)) == KIND("Rice")
    state.apply(KIND("Rice"))
    assert agent.act(state.view(0)) == CELL(3, 3)  # below the Salmon: ideal, 3 points


def test_heuristic_plays_chop_to_finish_a_recipe():
    state = table(
        2,
        board={(3, 1): "Tuna Salmon", (4, 1): "Rice"},
        hands={0: "Maki Carrot"},
        cards={0: "Chop!"},
        menus={0: ["Tuna Nigiri", "Kappa Maki", "Dragon Roll"]},
    )
    agent = HeuristicAgent(0)
    assert agent.act(state.view(0)) == CARD("Chop!")
    state.apply(CARD("Chop!"))
    assert state.phase == CHOP_TARGET and agent.act(state.view(0)) == CELL(3, 1)
    state.apply(CELL(3, 1))
    assert state.completed[0] == ((recipe_id("Tuna Nigiri"), True),)


def test_heuristic_blocks_a_likely_opponent_line():
    # P1 holds three length-2 recipes and Tunas: Maki at (0,0) with a Tuna beside it
    # would be Tekka Maki (or Sake Maki, Kani Maki, ...). P0, with nothing of its own to
    # build, puts its Fugu next to the Maki.
    state = table(
        2,
        board={(0, 0): "Maki", (5, 4): "Lobster"},
        hands={0: "Fugu", 1: "Tuna Tuna Tuna"},
        menus={0: ["Lobster Feast"], 1: ["R2-09", "R2-01", "R2-02"]},
    )
    agent = HeuristicAgent(0)
    state.apply(agent.act(state.view(0)))
    assert agent.act(state.view(0)) in (CELL(0, 1), CELL(1, 0))
