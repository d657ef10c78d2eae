"""``rules.sample_state(view, rng)`` on the native engine with either generator: a numpy
``Generator`` or the engine's own ``Pcg64`` (what the search draws from) give the same
sample from the same seed and leave the generators in the same state."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs import GAMES
from boardgame_envs.core.native import native_games, native_module
from boardgame_envs.registry import make_rules


def positions(rules, count: int, seed: int) -> list:
    """Positions of random play, 0–20 moves into games of 2 players."""
    rng = np.random.default_rng(seed)
    found = []
    for deal in range(count):
        state = rules.new_state(2, seed=seed + deal)
        for _ in range(rng.integers(0, 21)):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
        if not state.is_terminal():
            found.append(state)
    return found


@pytest.mark.native
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_engine_generator_gives_the_numpy_generator_sample(game):
    if game not in native_games():
        pytest.skip(f"no native {game} engine built")
    rules = make_rules(game, engine="native")
    for index, state in enumerate(positions(rules, 12, 7)):
        view = state.view(state.current_player)
        numpy_rng = np.random.default_rng(index)
        engine_rng = native_module().Pcg64.from_seed(index)
        for _ in range(2):  # the second sample starts from the advanced generators
            by_numpy = rules.sample_state(view, numpy_rng)
            by_engine = rules.sample_state(view, engine_rng)
            assert by_engine.to_dict() == by_numpy.to_dict()
            assert engine_rng.state == numpy_rng.bit_generator.state


@pytest.mark.native
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_engine_generator_refuses_a_python_engine_view(game):
    if game not in native_games():
        pytest.skip(f"no native {game} engine built")
    native_rules = make_rules(game, engine="native")
    python_view = make_rules(game, engine="python").new_state(2, seed=1).view(0)
    with pytest.raises(TypeError, match="numpy Generator"):
        native_rules.sample_state(python_view, native_module().Pcg64.from_seed(1))
    # a numpy generator still samples it (by the Python determinizer)
    sample = native_rules.sample_state(python_view, np.random.default_rng(1))
    assert np.array_equal(sample.view(0).observation(), python_view.observation())
