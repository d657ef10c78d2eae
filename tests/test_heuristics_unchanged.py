"""The heuristics are the reference opponents of every comparison: they must keep choosing
exactly the moves they chose before. The digests below are of every move of 8 seeded
two-player heuristic-against-heuristic games per game, recorded at commit 428d761 (before
the search work added ``placement_values`` to the Carcassonne heuristic)."""

from __future__ import annotations

import hashlib

import pytest

from boardgame_envs.agents.specs import make_agent
from boardgame_envs.core.native import native_games
from boardgame_envs.registry import make_rules

RECORDED = {
    "carcassonne_castle": "cd878e2b2ebc0426",
    "factors_multiples": "5f96bb276cc12367",
    "cornucopia": "a83d85348442ee4b",
    "tahiti": "a3a85e6df3ed2ba4",
    "wasabi": "942e6dc4798226f7",
}


#: Cornucopia's heuristic at bigger tables and with the red-chip variant, recorded at
#: 2548b5d (before its odds memo grew from 16 compositions to 1,024 and ``turn_outlook``
#: was added for search): (players, options) -> digest.
RECORDED_CORNUCOPIA = {
    (3, False): "12b1fd341cfe4d13",
    (4, False): "8e2946b1ef93166b",
    (5, False): "092717f45ae590db",
    (2, True): "be47ec3eb3eb054d",
    (4, True): "85d8c3e89e965dd9",
}


ENGINES = ["python", "native"]


def move_digest(game: str, engine: str, games: int = 8, num_players: int = 2, **options) -> str:
    """The heuristic's moves in seeded games on ``engine`` (it acts on that engine's views)."""
    if engine == "native" and game not in native_games():
        pytest.skip(f"no native {game} engine built")
    rules = make_rules(game, engine=engine)
    digest = hashlib.sha256()
    for seed in range(games):
        state = rules.new_state(num_players, seed=seed, **options)
        players = [make_agent("heuristic", game, engine=engine) for _ in range(num_players)]
        for seat, player in enumerate(players):
            player.reset(seed * 10 + seat)
        while not state.is_terminal():
            seat = state.current_player
            move = players[seat].act(state.view(seat))
            digest.update(str(move).encode())
            state.apply(move)
    return digest.hexdigest()[:16]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("game", sorted(RECORDED))
def test_heuristic_plays_exactly_as_before(game, engine):
    assert move_digest(game, engine) == RECORDED[game]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("num_players, variant", sorted(RECORDED_CORNUCOPIA))
def test_cornucopia_heuristic_plays_as_before_at_every_table_and_in_the_variant(
    num_players, variant, engine
):
    digest = move_digest("cornucopia", engine, num_players=num_players, variant_red3=variant)
    assert digest == RECORDED_CORNUCOPIA[num_players, variant]


def test_carcassonne_placement_values_rank_the_heuristics_own_choice_first():
    """The ranking search uses agrees with the move the heuristic plays."""
    rules = make_rules("carcassonne_castle")
    heuristic = make_agent("heuristic", "carcassonne_castle")
    checked = 0
    for seed in range(3):
        state = rules.new_state(2, seed=seed)
        heuristic.reset(seed)
        while not state.is_terminal():
            view = state.view(state.current_player)
            move = heuristic.act(view)
            if view.phase == "PLACE" and len(view.legal_actions()) > 1:
                values = heuristic.placement_values(view)
                assert values[move] == pytest.approx(max(values.values()), abs=1e-3)
                checked += 1
            state.apply(move)
    assert checked > 50


#: Cornucopia's heuristic off its own path: 60 games at 2-5 players (every third with the
#: red-chip variant), a quarter of the moves played at random, every chosen move and every
#: BID-phase ``turn_outlook`` (the floats search reads) hashed. Recorded at 52e215a, before
#: the heuristic's odds were rewritten for speed (eae68db).
RECORDED_CORNUCOPIA_OFF_PATH = "25f4907d4e6065d9"


def test_cornucopia_heuristic_moves_and_outlooks_unchanged_off_its_own_path():
    import random

    from boardgame_envs.cornucopia.rules import BID

    rules = make_rules("cornucopia")
    digest = hashlib.sha256()
    for game in range(60):
        num_players, variant = 2 + game % 4, game % 3 == 2
        state = rules.new_state(num_players, seed=500 + game, variant_red3=variant)
        players = [make_agent("heuristic", "cornucopia") for _ in range(num_players)]
        for seat, player in enumerate(players):
            player.reset(game * 10 + seat)
        noise = random.Random(game)
        while not state.is_terminal():
            seat = state.current_player
            view = state.view(seat)
            move = players[seat].act(view)
            digest.update(str(move).encode())
            if view.phase == BID:
                digest.update(repr(players[seat].turn_outlook(view)).encode())
            if noise.random() < 0.25:
                move = noise.choice(view.legal_actions())
            state.apply(move)
    assert digest.hexdigest()[:16] == RECORDED_CORNUCOPIA_OFF_PATH
