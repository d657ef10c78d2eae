"""The heuristic on either engine: ``make_agent("heuristic", game, engine=...)`` gives the
reference or its compiled twin, and the two play the same moves with the same seeds on views
of either engine; heuristic playouts are the same games on both."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs import GAMES
from boardgame_envs.agents.heuristic import NativeHeuristicAgent, heuristic_playout, reference_class
from boardgame_envs.agents.specs import make_agent
from boardgame_envs.core.native import native_games
from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.registry import make_rules


def needs_native(game: str) -> None:
    if game not in native_games():
        pytest.skip(f"no native {game} engine built")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_engine_picks_the_heuristic(game):
    assert type(make_agent("heuristic", game, engine="python")) is reference_class(game)
    if game in native_games():
        assert isinstance(make_agent("heuristic", game, engine="native"), NativeHeuristicAgent)
        assert isinstance(make_agent("heuristic", game), NativeHeuristicAgent)


@pytest.mark.parametrize("view_engine", ["python", "native"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_both_heuristics_play_the_same_game_on_views_of_either_engine(game, view_engine):
    """A whole seeded game: the reference and the compiled heuristic, each seated with the
    same seeds, choose the same moves (the compiled one hands views of the Python engine
    to the reference, its generator with it)."""
    needs_native(game)
    rules = make_rules(game, engine=view_engine)
    moves = {}
    for engine in ("python", "native"):
        state = rules.new_state(2, seed=11)
        players = [make_agent("heuristic", game, seed=100 + s, engine=engine) for s in range(2)]
        played = []
        while not state.is_terminal():
            move = players[state.current_player].act(state.view(state.current_player))
            played.append(move)
            state.apply(move)
        moves[engine] = played
    assert moves["native"] == moves["python"]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_heuristic_playouts_are_the_same_games_on_both_engines(game):
    needs_native(game)
    for epsilon in (0.0, 0.3):
        python_state = make_rules(game, engine="python").new_state(2, seed=5)
        native_state = make_rules(game, engine="native").new_state(2, seed=5)
        played = heuristic_playout(python_state, seed=9, epsilon=epsilon)
        assert native_state.playout("heuristic", seed=9, epsilon=epsilon) == played
        assert native_state.to_dict() == python_state.to_dict()
    assert heuristic_playout(make_rules(game).new_state(2, seed=5), seed=1, depth=3) == 3


def test_the_python_engine_names_where_heuristic_playouts_are():
    state = make_rules("wasabi", engine="python").new_state(2, seed=0)
    with pytest.raises(InvalidConfigError, match="heuristic_playout"):
        state.playout("heuristic", seed=0)
    for bad in (-0.1, 1.5, "0.2", True, float("nan")):
        with pytest.raises(InvalidConfigError, match="epsilon"):
            state.playout("heuristic", seed=0, epsilon=bad)
    with pytest.raises(InvalidConfigError, match="epsilon"):
        state.playout("random", seed=0, epsilon=0.5)  # random moves are all random


def test_the_compiled_heuristics_generator_is_numpys_stream():
    needs_native("carcassonne_castle")
    agent = make_agent("heuristic", "carcassonne_castle", seed=2**70 + 3, engine="native")
    reference = np.random.default_rng(2**70 + 3)
    assert agent.rng.random() == reference.random()  # a copy: the agent's stream is unmoved
    agent.rng = reference
    assert agent.rng.bit_generator.state == reference.bit_generator.state
    agent.reset(7)
    assert agent.rng.integers(1000) == np.random.default_rng(7).integers(1000)
