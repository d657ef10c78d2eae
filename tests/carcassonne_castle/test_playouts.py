"""Seeded random games with the issue's invariants at every step.

Budget: 300 games with the cheap checks at every step (mask == legal actions, the
invariants below) and 6 games with the full per-step checks of ``random_playouts``
(every legal action accepted on a clone, illegal and out-of-range actions refused with the
state unchanged), which cost ~100 clones per placement.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgame_envs import make_rules
from boardgame_envs.carcassonne_castle.castle import (
    CELL_GRID,
    CODE_PATHS,
    EMPTY,
    LOCATION_PLANES,
    MAX_SEGMENTS,
    NEIGHBOR,
    NO_SEGMENT,
    NUM_CELLS,
    Castle,
)
from boardgame_envs.carcassonne_castle.data import (
    FOLLOWERS_PER_PLAYER,
    HOUSE,
    PATH,
    TILE_COPIES,
    TOWER,
    WALL_TILES,
)
from boardgame_envs.carcassonne_castle.rules import GAME_OVER, State
from boardgame_envs.core.native import native_games
from boardgame_envs.core.testing import random_playouts
from tests.carcassonne_castle.helpers import RULES

GAMES = 100
#: and these more in ``make test-all`` (slow)
SLOW_GAMES = 200
FULLY_CHECKED_GAMES = 2


def tiles_conserved(state: State) -> None:
    """60 tiles across stack, drawn tile, castle and discards; the public count agrees."""
    assert sorted(state.tile_zones()) == sorted(TILE_COPIES)
    assert state.unseen == [state.stack.count(t) for t in range(46)] == state.unseen_counts()


def wall_tiles_conserved(state: State) -> None:
    """18 wall tiles across the track, the box, the players and the used pile."""
    assert sorted(state.wall_tile_zones()) == sorted(WALL_TILES)
    assert len(state.boxed) == 5


def followers_conserved(state: State) -> None:
    for seat in (0, 1):
        on_board = sum(s == seat for s, _ in state.castle.followers.values())
        assert state.supply[seat] + on_board == FOLLOWERS_PER_PLAYER, seat


def paths_match(state: State) -> None:
    """Every placed tile matches every occupied neighbour by the path rule."""
    castle = state.castle
    for cell, code, _ in castle.history:
        for d, nb in enumerate(NEIGHBOR[cell]):
            if nb >= 0 and castle.code[nb] != EMPTY:
                mine = CODE_PATHS[code] >> d & 1
                theirs = CODE_PATHS[castle.code[nb]] >> ((d + 2) % 4) & 1
                assert mine == theirs, (cell, d)


def followers_belong_to_their_placers(state: State) -> None:
    """A follower sits on a tile its owner laid (only the placer may claim, DP2), and each
    feature's counts are exactly the followers on its segments."""
    castle = state.castle
    placer = {CELL_GRID[cell]: seat for cell, _, seat in castle.history}
    counts: dict[int, list[int]] = {}
    for g, (seat, slot) in castle.followers.items():
        assert placer[g] == seat
        counts.setdefault(castle.feature_at(g, slot), [0, 0])[seat] += 1
    for root, pair in counts.items():
        assert list(castle.followers_on(root)) == pair
    arrays = castle.arrays()
    n = castle.num_segments
    roots = arrays["parent"][:n] == np.arange(n)
    assert arrays["count"][:, :n][:, roots].sum() == len(castle.followers)


def features_match_a_fresh_replay(state: State) -> None:
    """The incremental union-find equals the castle rebuilt from the placements."""
    castle = state.castle
    fresh = Castle.replay(castle.history, castle.followers)
    assert fresh.code == castle.code and fresh.key == castle.key
    for g in range(132):
        for s in range(12):
            a, b = castle.feature_at(g, s), fresh.feature_at(g, s)
            assert (castle.kind[a], castle.open[a], castle.size[a]) == (
                fresh.kind[b],
                fresh.open[b],
                fresh.size[b],
            )
            assert castle.followers_on(a) == fresh.followers_on(b)
    assert np.array_equal(castle.arrays()["planes"], fresh.arrays()["planes"])
    assert np.array_equal(castle.arrays()["slots"], fresh.arrays()["slots"])


def caches_match_a_rebuild(state: State) -> None:
    """The castle's incrementally kept caches equal a from-scratch computation from its own
    integer data: flat parents, each feature's circle of segments, ``root_at``, the 50
    location planes and the 48 port planes (``slots``)."""
    castle = state.castle
    arrays = castle.arrays()
    n = castle.num_segments
    parent = arrays["parent"]
    assert np.array_equal(parent[parent[:n]], parent[:n])  # every segment points at a root
    for root in castle.roots():
        circle, s = [], root
        while True:
            circle.append(s)
            s = castle.next_seg[s]
            if s == root:
                break
        assert sorted(circle) == np.flatnonzero(parent[:n] == root).tolist(), root
    assert np.array_equal(arrays["root_at"], parent[arrays["seg_at"]])
    assert np.array_equal(castle.arrays()["planes"], LOCATION_PLANES[arrays["code"]].T)
    count, kind = arrays["count"], arrays["kind"]
    table = np.zeros((4, MAX_SEGMENTS), dtype=np.float32)
    table[0] = count[0] / 6
    table[1] = count[1] / 6
    table[2] = (arrays["open"] == 0) & np.isin(kind, (TOWER, HOUSE, PATH))
    table[3] = arrays["size"] / 16
    table[:, NO_SEGMENT] = 0
    assert np.array_equal(arrays["slots"], table[:, arrays["root_at"]])
    # segment ids not used yet are ready to be fresh segments: size 1, no fountain/market
    fresh_ids = slice(n, NO_SEGMENT)
    assert (arrays["size"][fresh_ids] == 1).all() and arrays["size"][NO_SEGMENT] == 0
    assert not any(castle.fountain[fresh_ids]) and not any(castle.markets[fresh_ids])
    # the keys past the 76 cells stay 0; the PLACE mask is the placement mask, then zeros
    assert not any(castle.key[NUM_CELLS:])
    for tile in (0, 17, 45):
        actions = castle.placement_actions(tile)
        assert actions.shape == (326,) and not actions[304:].any()
        assert np.array_equal(actions[:304], castle.placement_mask(tile))
    # the joined board bytes are channels 0-97 as each seat sees them
    for seat in (0, 1):
        joined = np.frombuffer(b"".join(castle.board_parts(seat)), np.float32)
        blocks = arrays["slots"][[seat, 1 - seat, 2, 3]]
        assert np.array_equal(joined, np.concatenate((arrays["planes"].ravel(), blocks.ravel())))


INVARIANTS = (
    tiles_conserved,
    wall_tiles_conserved,
    followers_conserved,
    paths_match,
    followers_belong_to_their_placers,
)
#: with the (slower) check of the castle's caches, for the games checked in full
ALL_INVARIANTS = (*INVARIANTS, caches_match_a_rebuild)


def test_random_games_keep_every_invariant():
    stats = random_playouts(RULES, 2, range(GAMES), INVARIANTS, check_actions=False)
    assert stats.games == GAMES
    assert stats.phases_seen == {"PLACE", "FOLLOWER", "ORDER", "DOUBLE", "EXTRA"}
    assert stats.longest <= RULES.max_decisions(2, {})
    seen = stats.actions_seen
    assert set(range(304, 318)) <= seen  # every slot, PASS and YES
    assert len(seen & set(range(318, 326))) >= 2  # case-(b) ORDER names occur


@pytest.mark.slow
def test_more_random_games_keep_every_invariant():
    stats = random_playouts(
        RULES, 2, range(GAMES, GAMES + SLOW_GAMES), INVARIANTS, check_actions=False
    )
    assert stats.games == SLOW_GAMES


def test_every_legal_action_is_accepted_and_illegal_ones_change_nothing():
    stats = random_playouts(
        RULES, 2, range(1000, 1000 + FULLY_CHECKED_GAMES), ALL_INVARIANTS, check_actions=True
    )
    assert stats.games == FULLY_CHECKED_GAMES


@pytest.mark.skipif(
    "carcassonne_castle" not in native_games(), reason="carcassonne_castle is not compiled"
)
def test_native_random_games_keep_every_invariant():
    """The same checks on the compiled engine (its states answer through the glue), fewer
    games: tests/native holds it to the Python engine move for move."""
    native = make_rules("carcassonne_castle", engine="native")
    stats = random_playouts(native, 2, range(2000, 2005), INVARIANTS, check_actions=False)
    assert stats.games == 5 and stats.longest <= native.max_decisions(2, {})


def test_scores_never_decrease_and_features_match_a_replay():
    for seed in range(20):
        state = RULES.new_state(2, seed=seed)
        rng = np.random.default_rng(seed)
        last = list(state.scores_)
        step = 0
        while not state.is_terminal():
            state.apply(int(rng.choice(state.legal_actions())))
            assert all(new >= old for new, old in zip(state.scores_, last))
            last = list(state.scores_)
            if step % 7 == 0:
                features_match_a_fresh_replay(state)
            step += 1
        assert state.phase == GAME_OVER


def test_caches_survive_clones_and_snapshots():
    """Clones share the castle until one of them changes it, and a JSON snapshot rebuilds
    it: at every step of seeded games, both sides of a fork and a reloaded state keep
    caches equal to a rebuild, and observe the same as the state they came from."""
    for seed in range(5):
        state = RULES.new_state(2, seed=seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            fork = state.clone()
            reloaded = RULES.from_json(state.to_json())
            for other in (fork, reloaded):
                caches_match_a_rebuild(other)
                for seat in (0, 1):
                    assert np.array_equal(
                        other.view(seat).observation(), state.view(seat).observation()
                    )
            legal = state.legal_actions()
            fork.apply(int(rng.choice(legal)))  # the fork diverges; the state must not see it
            caches_match_a_rebuild(fork)
            state.apply(int(rng.choice(legal)))
            caches_match_a_rebuild(state)
            if rng.random() < 0.3:
                state = reloaded if not reloaded.is_terminal() else state
                if state is reloaded:
                    state.apply(int(rng.choice(state.legal_actions())))
                    caches_match_a_rebuild(state)


def public_fields_match_a_rebuild(state: State) -> None:
    """The view's cached keeps, held, stocked, used and discards equal a fresh build."""
    cached = state._public_fields()
    state._changed_public()
    assert state._public_fields() == cached


def test_cached_view_fields_follow_every_change():
    """The view's tuples that the state builds once until a change equal a fresh build at
    every step of seeded games (wall tiles, keeps and set-aside tiles happen in them),
    on both sides of a fork and after a JSON round trip."""
    seen = {"held": False, "keeps": False, "used": False, "discards": False}
    for seed in (*range(12), 16, 24):  # 16: a discard, 24: a used tile (the first seeds with them)
        state = RULES.new_state(2, seed=seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            for seat in (0, 1):
                state.view(seat)  # fills the cache before the next change
            fork = state.clone()
            legal = state.legal_actions()
            fork.apply(int(rng.choice(legal)))
            state.apply(int(rng.choice(legal)))
            for other in (state, fork, RULES.from_json(state.to_json())):
                public_fields_match_a_rebuild(other)
            view = state.view(0)
            seen["held"] |= any(view.held)
            seen["keeps"] |= any(k is not None for k in view.keeps)
            seen["used"] |= bool(view.used)
            seen["discards"] |= bool(view.discards)
    assert all(seen.values()), seen


def test_new_castles_do_not_share_the_empty_template():
    state = RULES.new_state(2, seed=0)
    cell, rotation = divmod(state.legal_actions()[0], 4)
    castle = Castle()
    castle.place(cell, state.tile, rotation, 0)
    fresh = Castle()
    assert castle.history and not fresh.history and fresh.is_empty(cell)
    assert not np.array_equal(castle.arrays()["planes"], fresh.arrays()["planes"])
    assert not np.array_equal(castle.arrays()["slots"], fresh.arrays()["slots"])


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), data=st.data())
def test_any_action_sequence_keeps_invariants(seed, data):
    """Hypothesis draws the moves, so a failing game shrinks to a short one."""
    state = RULES.new_state(2, seed=seed)
    while not state.is_terminal():
        state.apply(data.draw(st.sampled_from(state.legal_actions())))
        for invariant in ALL_INVARIANTS:
            invariant(state)
