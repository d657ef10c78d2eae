"""Hidden information stays hidden; clone and JSON copies continue identically."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from boardgame_envs.core.testing import check_continuations, check_hidden_information, play_trace
from boardgame_envs.wasabi.data import RECIPE_LENGTH
from boardgame_envs.wasabi.rules import NUM_ACTIONS, PLACE_TARGET, State
from tests.wasabi.helpers import RULES


def resample_recipes(state: State, seat: int, rng: np.random.Generator) -> State:
    """Reshuffle what ``seat`` cannot know (spec §7, §11.5): the contents of the other
    seats' recipes, keeping their lengths, and the order of every deck."""
    other = state.clone()
    menus = [list(menu) for menu in other.menus]  # the state's are immutable tuples
    for length in (2, 3, 4, 5):
        slots = [
            (menu, i)
            for s, menu in enumerate(menus)
            if s != seat
            for i, r in enumerate(menu)
            if r is not None and RECIPE_LENGTH[r] == length
        ]
        deck = other.decks[length - 2]
        slots += [(deck, i) for i in range(len(deck))]
        pool = [zone[i] for zone, i in slots]
        rng.shuffle(pool)
        for (zone, i), recipe in zip(slots, pool):
            zone[i] = recipe
    other.menus = tuple(map(tuple, menus))
    return other


def resample_hands(state: State, seat: int, rng: np.random.Generator) -> State:
    """Also reshuffle the other seats' tiles and cards among them, keeping hand sizes (what
    ``hide_opponent_hands`` hides), and the kind another seat chose at PLACE_TARGET (still
    behind its screen): one of the kinds of its new hand."""
    other = resample_recipes(state, seat, rng)
    others = [s for s in range(state.num_players) if s != seat]
    for name, size in (("tiles", 17), ("cards", 5)):
        hands = [list(hand) for hand in getattr(other, name)]
        pool = [k for s in others for k in range(size) for _ in range(hands[s][k])]
        rng.shuffle(pool)
        for s in others:
            count = sum(hands[s])
            hands[s][:] = [0] * size
            for k in pool[:count]:
                hands[s][k] += 1
            pool = pool[count:]
        setattr(other, name, tuple(map(tuple, hands)))
    if other.phase == PLACE_TARGET and other.active != seat:
        held = [k for k, count in enumerate(other.tiles[other.active]) if count]
        other.kind = int(rng.choice(held))
        other._mask = None
    return other


HIDE = {"hide_opponent_hands": True}


def walk(num_players: int, seed: int, steps: int, rules=RULES, **options):
    """States along a seeded random game (on ``rules``' engine)."""
    state = rules.new_state(num_players, seed=seed, **options)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            return
        yield state
        state.apply(int(rng.choice(state.legal_actions())))


def on_engine_of(resample):
    """``resample`` for a state of either engine: a native state is resampled through its
    Python copy, and the sample loaded back natively."""

    def resample_any(state, seat, rng):
        if state.engine == "python":
            return resample(state, seat, rng)
        return state.rules.from_reference(resample(state.to_reference(), seat, rng))

    return resample_any


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_observation_ignores_other_recipes_and_deck_order(num_players, rules):
    rng = np.random.default_rng(num_players)
    native = rules.engine == "native"  # fewer states: each sample is loaded natively
    for seed in range(1 if native else 3):
        for state in walk(num_players, seed, 120 if native else 200, rules):
            for seat in range(num_players):
                check_hidden_information(state, seat, on_engine_of(resample_recipes), rng, 1)


@pytest.mark.parametrize("num_players", [3, 4])
def test_hidden_hands_option_hides_tiles_and_cards(num_players, rules):
    rng = np.random.default_rng(num_players)
    native = rules.engine == "native"
    for seed in range(1 if native else 3):
        for state in walk(num_players, seed, 120 if native else 200, rules, **HIDE):
            if native and state._phase_name() in ("GIFT_PICK", "DRAFT_PICK"):
                continue  # resample_hands ignores the gifts: samples a snapshot cannot hold
            for seat in range(num_players):
                check_hidden_information(state, seat, on_engine_of(resample_hands), rng, 1)


def test_resampling_really_changes_hidden_facts():
    """Guard for the tests above: the resamplers move what the seat cannot see."""
    state = list(walk(4, 0, 60))[-1]
    other = resample_hands(state, 0, np.random.default_rng(1))
    assert other.decks != state.decks
    assert other.menus[1:] != state.menus[1:] and other.menus[0] == state.menus[0]
    assert other.tiles[1:] != state.tiles[1:] and other.tiles[0] == state.tiles[0]
    lengths = [[RECIPE_LENGTH[r] if r is not None else 0 for r in m] for m in state.menus]
    assert lengths == [[RECIPE_LENGTH[r] if r is not None else 0 for r in m] for m in other.menus]


def test_observation_changes_with_own_recipes_and_public_hands():
    state = list(walk(3, 1, 60))[-1]
    seat = 0
    other = state.clone()
    own = list(other.menus[seat])
    i = next(i for i, r in enumerate(own) if r is not None)
    deck = other.decks[RECIPE_LENGTH[own[i]] - 2]
    own[i], deck[0] = deck[0], own[i]  # a different recipe of the same length
    other.menus = tuple(tuple(own) if s == seat else m for s, m in enumerate(other.menus))
    assert not np.array_equal(state.view(seat).observation(), other.view(seat).observation())
    # The opponents' tiles are public by default (spec §7: every move of a tile is open).
    other = resample_hands(state, seat, np.random.default_rng(0))
    assert other.tiles != state.tiles
    assert not np.array_equal(state.view(seat).observation(), other.view(seat).observation())


def test_view_holds_no_hidden_fact():
    state = list(walk(3, 2, 40))[-1]
    view = state.view(0)
    fields = set(view.__dataclass_fields__)
    assert not fields & {"decks", "menus", "config"}
    assert view.menu == tuple(state.menus[0])
    assert view.menu_lengths[1] == tuple(RECIPE_LENGTH[r] for r in state.menus[1])
    hidden = RULES.new_state(3, seed=2, hide_opponent_hands=True)
    assert hidden.view(0).tiles[1] is None and hidden.view(0).cards[2] is None
    assert hidden.view(0).tiles[0] is not None


@pytest.mark.parametrize("num_players, at_step", [(2, 0), (2, 150), (3, 40), (4, 300)])
def test_clone_and_json_copy_continue_identically(num_players, at_step, rules):
    check_continuations(rules, num_players, seed=num_players * 17, at_step=at_step)


def test_json_round_trip_mid_turn_with_a_chopped_tile():
    from tests.wasabi.helpers import CARD, CELL, table

    state = table(2, board={(0, 0): "Rice Maki"}, cards={0: "Chop!"}, hands={0: "Tuna"})
    state.apply(CARD("Chop!"))
    state.apply(CELL(0, 0))
    copy = RULES.from_json(state.to_json())
    assert copy.to_json() == state.to_json() and copy.lifted == state.lifted
    assert play_trace(copy, 100, 1) == play_trace(state, 100, 1)


def test_clone_is_independent(rules):
    state = rules.new_state(2, seed=3)
    clone = state.clone()
    play_trace(clone, 80, seed=0)
    assert state.to_json() == rules.new_state(2, seed=3).to_json()


def copies_along_a_game(num_players: int, seed: int, steps: int):
    """States along a seeded random game, each also as a clone and as a JSON copy (which
    rebuild or share the memos differently)."""
    for state in walk(num_players, seed, steps):
        yield state
        yield state.clone()
        yield RULES.from_json(state.to_json())


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_memoised_view_fields_equal_a_rebuild(num_players):
    """menu_lengths and scores come from a memo kept while the menus, completions and
    cubes are the same tuples; they must equal a computation from scratch at every step."""
    for seed in range(2):
        for state in copies_along_a_game(num_players, seed, 400):
            lengths = tuple(
                tuple(0 if r is None else RECIPE_LENGTH[r] for r in menu) for menu in state.menus
            )
            scores = tuple(int(s) for s in state.scores())
            for seat in range(num_players):
                view = state.view(seat)
                assert view.menu_lengths == lengths and view.scores == scores


def test_view_fields_are_the_states():
    """``view`` passes its fields by position: each must land in the field of its name."""
    state = list(walk(3, 4, 90))[-1]
    view = state.view(1)
    same_name = set(view.__dataclass_fields__) & set(vars(state)) - {"tiles", "cards", "mask"}
    assert len(same_name) > 20
    for name in same_name:
        assert getattr(view, name) == getattr(state, name), name
    assert (view.seat, view.current_player, view.mask.tolist()) == (
        1,
        state.current_player,
        [False] * NUM_ACTIONS if state.current_player != 1 else state.legal_action_mask().tolist(),
    )
    assert view.menu == state.menus[1] and view.max_turns == state.config["max_turns"]
    assert view.deck_sizes == tuple(map(len, state.decks))
    assert view.tiles == state.tiles and view.cards == state.cards


def fields(view) -> dict:
    """A view's fields but the rules (the mask as a list, for ==)."""
    return {
        name: value.tolist() if name == "mask" else value
        for name, value in vars(view).items()
        if name != "rules"
    }


@pytest.mark.parametrize("num_players", [2, 4])
def test_a_view_is_a_snapshot(num_players, rules):
    """A view taken before ``apply`` shows the same fields and observation afterwards,
    although it shares the state's (immutable) components."""
    state = rules.new_state(num_players, seed=5)
    rng = np.random.default_rng(5)
    for _ in range(300):
        if state.is_terminal():
            break
        views = [state.view(seat) for seat in range(num_players)]
        before = [(copy.deepcopy(fields(v)), v.observation()) for v in views]
        state.apply(int(rng.choice(state.legal_actions())))
        for view, (fields_before, observation) in zip(views, before):
            assert fields(view) == fields_before
            assert np.array_equal(view.observation(), observation)


def test_a_clone_does_not_move_with_the_original(rules):
    state = list(walk(2, 6, 120, rules))[-1]
    clone = state.clone()
    before = clone.to_json()
    play_trace(state, 40, seed=2)
    assert clone.to_json() == before
