"""Determinization (``rules.sample_state``): a full state drawn from one seat's view.

Hidden from a seat (spec §7, §11.5): the contents of the other seats' recipes (their lengths
are public), the order of every deck, and under ``hide_opponent_hands`` the other seats'
tiles and cards (their numbers are public). Positions come from seeded random games of every
player count, with and without ``hide_opponent_hands``, and from built positions for the
rare decision points; every seat is checked, not only the mover.
"""

from __future__ import annotations

import functools
from collections import Counter

import numpy as np
import pytest

from boardgame_envs.core.testing import (
    assert_views_equal,
    check_determinization,
    check_sample_reads_view_only,
)
from boardgame_envs.wasabi.data import (
    LENGTHS,
    NUM_KINDS,
    RECIPE_LENGTH,
    TILE_COUNTS,
    WASABI,
    card_type,
    kind_id,
)
from boardgame_envs.wasabi.rules import (
    AFTER_PLACEMENT,
    CARD_BASE,
    DONE,
    DRAFT_PICK,
    GIFT_PICK,
    LENGTH_BASE,
    PHASES,
    PLACE_TARGET,
    REWARD_DISCARD,
    REWARD_PICK,
    SLOT_BASE,
    STEP1_START,
    WASABI_ANCHOR,
    State,
)
from tests.wasabi.helpers import CARD, CELL, KIND, RULES, table
from tests.wasabi.test_hidden_and_snapshots import resample_hands, resample_recipes
from tests.wasabi.test_playouts import INVARIANTS

SETUP = (GIFT_PICK, DRAFT_PICK)
HIDE = {"hide_opponent_hands": True}
#: (player count, options) of the random games.
CONFIGS = [(2, {}), (3, {}), (4, {}), (2, HIDE), (3, HIDE), (4, HIDE)]
EVERY = 9  # a position every EVERY decisions (and the first of each decision point)
PLAY_EVERY = 70  # of those, one in about PLAY_EVERY decisions is also played to the end


CARDS = {
    0: "Switch! Chop!",
    1: "Wasabi! Spicy!",
    2: "Stack! Wasabi!",
    3: "Chop! Switch!",
}
HANDS = ("Tuna", "Eel", "Crab", "Carrot")


def card_rich_start(num_players: int, hide: bool) -> State:
    """A first turn at which every seat holds two action cards and some recipes: random
    games complete few recipes, so they rarely play cards (or reach the decision points of
    the cards) without such a start."""
    return table(
        num_players,
        board={(0, 0): "Rice", (0, 1): "Maki", (1, 0): "Salmon", (2, 2): "Tuna Crab"},
        hands={s: f"Rice Maki {HANDS[s]}" for s in range(num_players)},
        cards={s: CARDS[s] for s in range(num_players)},
        menus={s: [f"R2-0{1 + s}", f"R3-0{1 + s}", f"R4-0{1 + s}"] for s in range(num_players)},
        **(HIDE if hide else {}),
    )


def policy(state: State, rng: np.random.Generator) -> int:
    """Random, but playing a card when one may be played (mostly) and passing Step 1
    rarely: such games reach every card's decision points."""
    legal = state.legal_actions()
    if state.phase in (STEP1_START, AFTER_PLACEMENT, REWARD_PICK) and rng.random() < 0.7:
        cards = [a for a in legal if CARD_BASE <= a < LENGTH_BASE]
        if cards:
            return int(rng.choice(cards))
    if state.phase == STEP1_START and rng.random() < 0.9:
        legal = [a for a in legal if not SLOT_BASE <= a < DONE] or legal
    return int(rng.choice(legal))


@functools.cache
def positions(num_players: int, hide: bool) -> tuple[tuple[State, bool], ...]:
    """(position, play it to the end?) along seeded random games, one from the setup and
    one from a card-rich start: every setup decision, the first position of each decision
    point, and one every EVERY decisions."""
    found = []
    starts = [
        RULES.new_state(num_players, seed=100, hide_opponent_hands=hide),
        card_rich_start(num_players, hide),
    ]
    for game, state in enumerate(starts):
        rng = np.random.default_rng(game)
        seen: set[str] = set()
        step = 0
        while True:
            first = state.phase not in seen
            seen.add(state.phase)
            if first or step % EVERY == 0 or state.phase in SETUP or state.is_terminal():
                found.append((state.clone(), first or step % PLAY_EVERY == 0))
            if state.is_terminal():
                break
            state.apply(policy(state, rng))
            step += 1
    return tuple(found)


def built_positions(hide: bool) -> list[State]:
    """The decision points random games rarely reach, from spec examples: REWARD_DISCARD
    (Example 11) and WASABI_ANCHOR, CHOPPED_TILE, SWITCH_SECOND with cards in hand."""
    options = HIDE if hide else {}
    built = []
    state = table(
        4,
        board={(0, 0): "Salmon", (3, 3): "Maki", (3, 5): "Tuna"},
        hands={1: "Rice"},
        cards={0: "Stack! Spicy!", 1: "Switch! Stack!", 2: "Spicy! Wasabi!", 3: "Chop! Wasabi!"},
        menus={1: ["Salmon Nigiri", "Tekka Maki"], 2: ["R3-01", "R4-02"], 3: ["R5-01"]},
        active=1,
        **options,
    )
    for action in (KIND("Rice"), CELL(1, 0), CARD("Switch!"), CELL(3, 4), CELL(3, 5), 62, 61):
        state.apply(action)
    assert state.phase == REWARD_DISCARD and state.new_card == card_type("Switch!")
    built.append(state)
    for card, actions in (
        ("Wasabi!", [CELL(2, 2)]),
        ("Chop!", [CELL(0, 0)]),
        ("Switch!", [CELL(0, 0)]),
    ):
        state = table(
            3,
            board={(0, 0): "Rice Maki", (0, 1): "Tuna"},
            hands={0: "Crab", 1: "Tuna Eel", 2: "Maki Rice Squid"},
            cards={0: "Spicy!", 1: f"{card} Stack!", 2: "Spicy!"},
            menus={0: ["R2-01"], 1: ["R2-09", "R3-02", "R4-03"], 2: ["R2-15", "R5-05"]},
            active=1,
            **options,
        )
        state.apply(CARD(card))
        built.append(state.clone())
        for action in actions:
            state.apply(action)
            built.append(state.clone())
    return built


def resample_hidden(state: State, seat: int, rng: np.random.Generator) -> State:
    """What ``seat`` cannot know, drawn again by the resamplers of the hidden-information
    tests. During the setup the left neighbour's hand is the seat's own gift (the view's
    ``gift_given``), so only the other hidden hands are reshuffled then."""
    if not state.config["hide_opponent_hands"]:
        return resample_recipes(state, seat, rng)
    if state.phase not in SETUP:
        return resample_hands(state, seat, rng)
    other = resample_recipes(state, seat, rng)
    n = state.num_players
    hidden = [s for s in range(n) if s not in (seat, (seat + 1) % n)]
    hands = [list(hand) for hand in other.tiles]
    pool = [k for s in hidden for k in range(NUM_KINDS) for _ in range(hands[s][k])]
    rng.shuffle(pool)
    for s in hidden:
        count = sum(hands[s])
        hands[s] = [0] * NUM_KINDS
        for k in pool[:count]:
            hands[s][k] += 1
        pool = pool[count:]
    other.tiles = tuple(map(tuple, hands))
    return other


def sample(state: State, seat: int, seed: int) -> State:
    return RULES.sample_state(state.view(seat), np.random.default_rng(seed))


# -- 1. the sample shows the seat exactly its view, and plays on --------------------------
@pytest.mark.parametrize("num_players, options", CONFIGS)
def test_samples_show_the_same_view_at_every_decision_point(num_players, options):
    hide = bool(options)
    found = positions(num_players, hide)
    checked, played = Counter(), 0
    for i, (state, play) in enumerate(found):
        for seat in range(num_players):
            # Play on from one seat per position (the continuation does not depend on it).
            to_end = play and seat == i % num_players
            check_determinization(state, seat, 7 * i + seat, INVARIANTS, play_to_end=to_end)
            played += to_end
        checked[state.phase] += 1
    assert sum(checked.values()) >= 40 and played >= 8
    # Every decision point but the rare pick discard (built below) is checked.
    assert set(checked) >= set(PHASES) - {REWARD_DISCARD}, set(PHASES) - set(checked)


@pytest.mark.parametrize("hide", [False, True])
def test_samples_of_built_rare_decision_points(hide):
    for i, state in enumerate(built_positions(hide)):
        for seat in range(state.num_players):
            check_determinization(state, seat, i, INVARIANTS, play_to_end=seat == 0)


# -- 2. the sample depends on the view only ------------------------------------------------
@pytest.mark.parametrize("num_players, options", CONFIGS)
def test_samples_ignore_what_the_seat_cannot_see(num_players, options):
    rng = np.random.default_rng(num_players)
    found = [state for state, _ in positions(num_players, bool(options))]
    found += built_positions(bool(options)) if num_players == 3 else []
    changed = 0
    for i, state in enumerate(found[::2]):
        for seat in range(num_players):
            other = resample_hidden(state, seat, rng)
            changed += other.to_json() != state.to_json()
            check_sample_reads_view_only(state, other, seat, seed=i)
    # Guard: the resamplers really moved hidden facts in most positions.
    assert changed >= len(found[::2]) * num_players // 2


# -- 3. the hidden parts really vary, each over every place it could be --------------------
def spread(places: Counter, expected: dict, draws: int) -> None:
    """Every place was reached, each about as often as a uniform deal gives."""
    assert set(places) == set(expected), (places, expected)
    for place, p in expected.items():
        assert abs(places[place] / draws - p) < 0.3 * p + 0.02, (place, places[place], p)


def recipe_places(state: State, recipe: int) -> tuple:
    for s, menu in enumerate(state.menus):
        if recipe in menu:
            return ("menu", s, menu.index(recipe))
    return ("deck",)


def mid_game(num_players: int, steps: int, **options) -> State:
    state = RULES.new_state(num_players, seed=5, **options)
    rng = np.random.default_rng(5)
    for _ in range(steps):
        state.apply(int(rng.choice(state.legal_actions())))
    assert not state.is_terminal()
    return state


def test_an_unseen_recipe_goes_to_every_opponent_slot_of_its_length_and_the_deck():
    state = mid_game(4, 120)
    seat = 0
    view = state.view(seat)
    lengths = view.menu_lengths
    held = Counter(length for s in range(1, 4) for length in lengths[s] if length)
    length = held.most_common(1)[0][0]
    slots = [("menu", s, i) for s in range(1, 4) for i, L in enumerate(lengths[s]) if L == length]
    assert len(slots) >= 2
    deck = view.deck_sizes[length - 2]
    unseen = len(slots) + deck
    # A recipe of that length that seat 0 cannot place: held by an opponent.
    _, s, i = slots[0]
    recipe = state.menus[s][i]
    draws = 1500
    rng = np.random.default_rng(0)
    places, tops = Counter(), Counter()
    for _ in range(draws):
        other = RULES.sample_state(view, rng)
        places[recipe_places(other, recipe)] += 1
        tops[other.decks[length - 2][0]] += 1
        assert [[RECIPE_LENGTH[r] if r is not None else 0 for r in m] for m in other.menus] == [
            list(m) for m in lengths
        ]
    expected = {slot: 1 / unseen for slot in slots}
    expected[("deck",)] = deck / unseen
    spread(places, expected, draws)
    # The top of the deck is each unseen recipe of the length about equally often.
    pool = [r for m in state.menus[1:] for r in m if r is not None and RECIPE_LENGTH[r] == length]
    pool += state.decks[length - 2]
    spread(tops, {r: 1 / unseen for r in pool}, draws)


def test_every_deck_order_varies():
    state = mid_game(2, 60)
    view = state.view(1)
    rng = np.random.default_rng(1)
    orders = [RULES.sample_state(view, rng).decks for _ in range(200)]
    for i in range(len(LENGTHS)):
        if view.deck_sizes[i] >= 3:
            assert len({tuple(d[i]) for d in orders}) >= 190
            # Each position of the deck takes more than one recipe.
            for position in range(view.deck_sizes[i]):
                assert len({d[i][position] for d in orders}) >= 2


def test_hidden_tiles_and_cards_go_to_every_opponent_by_hand_size():
    state = card_rich_start(4, hide=True)
    rng = np.random.default_rng(2)
    for _ in range(5):
        state.apply(int(rng.choice(state.legal_actions())))
    seat = 2
    view = state.view(seat)
    others = [s for s in range(4) if s != seat]
    tiles_total = sum(view.tiles_held[s] for s in others)
    cards_total = sum(view.cards_held[s] for s in others)
    assert tiles_total >= 6 and cards_total >= 2
    kind = next(k for k in range(NUM_KINDS) if sum(state.tiles[s][k] for s in others) == 1)
    card = next(t for t in range(5) if sum(state.cards[s][t] for s in others) == 1)
    draws = 1500
    tile_places, card_places = Counter(), Counter()
    for _ in range(draws):
        other = RULES.sample_state(view, rng)
        assert other.tiles[seat] == state.tiles[seat] and other.cards[seat] == state.cards[seat]
        assert [sum(h) for h in other.tiles] == [sum(h) for h in state.tiles]
        assert [sum(h) for h in other.cards] == [sum(h) for h in state.cards]
        (holder,) = [s for s in others if other.tiles[s][kind]]
        tile_places[holder] += 1
        (holder,) = [s for s in others if other.cards[s][card]]
        card_places[holder] += 1
    tiles_expected = {s: view.tiles_held[s] / tiles_total for s in others if view.tiles_held[s]}
    cards_expected = {s: view.cards_held[s] / cards_total for s in others if view.cards_held[s]}
    spread(tile_places, tiles_expected, draws)
    spread(card_places, cards_expected, draws)


def test_setup_gifts_under_hidden_hands():
    """In the setup the left neighbour holds exactly the seat's gift; the other hidden hands
    are whole gifts (three different kinds), dealt both ways."""
    state = RULES.new_state(4, seed=3, start_player=0, **HIDE)
    rng = np.random.default_rng(3)
    while state.phase != DRAFT_PICK:
        state.apply(int(rng.choice(state.legal_actions())))
    seat = 0
    view = state.view(seat)
    assert view.gift_given == state.tiles[1] and sum(view.gift_given) == 3
    assert view.tiles[1] is None and view.tiles_held == (3, 3, 3, 3)
    hands = Counter()
    for _ in range(300):
        other = RULES.sample_state(view, rng)
        assert other.tiles[0] == state.tiles[0] and other.tiles[1] == state.tiles[1]
        assert all(max(other.tiles[s]) == 1 and sum(other.tiles[s]) == 3 for s in (2, 3))
        hands[other.tiles[2]] += 1
    unseen = Counter(k for s in (2, 3) for k in range(NUM_KINDS) for _ in range(state.tiles[s][k]))
    # Every split of the six unseen tiles into two gifts of three kinds occurs.
    kinds = sorted(unseen)
    splits = {
        tuple(int(k in chosen) for k in range(NUM_KINDS))
        for chosen in _subsets(kinds, 3)
        if all(unseen[k] - (k in chosen) in (0, 1) for k in kinds)
    }
    assert len(splits) >= 2 and set(hands) == splits
    # During a gift, the receiver holds the gift in progress.
    state = RULES.new_state(3, seed=4, start_player=0, **HIDE)
    for action in (KIND("Tuna"), KIND("Salmon"), KIND("Maki"), KIND("Crab")):
        state.apply(action)
    view = state.view(0)  # P1 is giving to P2 and has chosen Crab
    assert view.gift == (kind_id("Crab"),) and view.tiles[2] is None
    for _ in range(20):
        other = RULES.sample_state(view, rng)
        assert other.tiles[2] == state.tiles[2] and other.tiles[1] == state.tiles[1]


def _subsets(items: list[int], size: int) -> list[tuple[int, ...]]:
    from itertools import combinations

    return list(combinations(items, size))


def unseen_tiles(view) -> Counter:
    """The tiles ``view.seat`` cannot place: in no public place and not in its hand."""
    unseen = Counter(
        {k: TILE_COUNTS[k] - view.pantry[k] - view.tiles[view.seat][k] for k in range(NUM_KINDS)}
    )
    for stack in view.stacks:
        unseen.subtract(stack)
    if view.lifted is not None:
        unseen[view.lifted] -= 1
    return +unseen


def test_a_hidden_pending_kind_is_drawn_among_the_kinds_the_mover_could_hold():
    """Under hidden hands another seat's view does not show the kind the mover chose at
    PLACE_TARGET (issue 11 B1): each sample draws it uniformly among the kinds of the unseen
    tiles, and the mover holds it; the mover itself sees its choice, kept as it is."""
    rng = np.random.default_rng(4)
    state = mid_game(3, 40, **HIDE)
    while not (state.phase == PLACE_TARGET and state.active != 0):
        state.apply(int(rng.choice(state.legal_actions())))
    view = state.view(0)
    assert view.kind is None and state.kind is not None
    assert state.view(state.active).kind == state.kind
    choices = sorted(unseen_tiles(view))
    assert len(choices) >= 3
    kinds, rest = Counter(), Counter()
    draws = 1500
    for _ in range(draws):
        other = RULES.sample_state(view, rng)
        assert other.tiles[state.active][other.kind] >= 1
        kinds[other.kind] += 1
        rest[other.tiles[state.active]] += 1
    spread(kinds, {k: 1 / len(choices) for k in choices}, draws)
    assert len(rest) >= 2
    mover = state.view(state.active)
    for _ in range(20):
        assert RULES.sample_state(mover, rng).kind == state.kind


def test_pinned_hidden_components_are_in_the_movers_hand():
    """Under hidden hands the view still shows the Wasabi! card being laid and the card
    just picked: each sample's mover holds it; the rest of the mover's hand varies."""
    rng = np.random.default_rng(4)
    discard, wasabi = built_positions(hide=True)[:2]
    assert (discard.phase, wasabi.phase) == (REWARD_DISCARD, WASABI_ANCHOR)
    for state, card in ((discard, discard.new_card), (wasabi, WASABI)):
        view = state.view(0)
        hands = Counter()
        for _ in range(200):
            other = RULES.sample_state(view, rng)
            assert other.cards[state.active][card] >= 1
            hands[other.cards[state.active]] += 1
        assert len(hands) >= 2


# -- 4. the sample is its own ----------------------------------------------------------
def mutable_ids(obj, found: set[int] | None = None) -> set[int]:
    """The ids of every mutable container reachable from ``obj`` (lists, dicts, sets,
    arrays), through tuples, lists and dicts and the attributes of objects."""
    found = set() if found is None else found
    if isinstance(obj, (list, dict, set, np.ndarray)):
        if id(obj) in found:
            return found
        found.add(id(obj))
    if isinstance(obj, dict):
        items = list(obj.values())
    elif isinstance(obj, (list, tuple, set)):
        items = list(obj)
    elif hasattr(obj, "__dict__") and not isinstance(obj, type) and obj is not RULES:
        items = list(vars(obj).values())
    else:
        items = []
    for item in items:
        mutable_ids(item, found)
    return found


@pytest.mark.parametrize("num_players, options", [(2, {}), (4, HIDE)])
def test_a_sample_shares_no_mutable_container_with_the_view_or_the_state(num_players, options):
    state = mid_game(num_players, 150, **options)
    for seat in range(num_players):
        view = state.view(seat)
        before = state.to_json()
        other = RULES.sample_state(view, np.random.default_rng(seat))
        assert set(vars(other)) - {"_mask"} == set(vars(state)) - {"_mask"}
        theirs = mutable_ids(view) | mutable_ids(state)
        ours = mutable_ids(other)
        assert ours, "the sample holds its decks and config"
        assert not ours & theirs
        # Changing the sample leaves the view and the state as they were.
        other.decks[0].clear()
        other.config["max_turns"] = 1
        fresh = RULES.sample_state(view, np.random.default_rng(seat))
        assert_views_equal(fresh.view(seat), view)
        rng = np.random.default_rng(seat)
        for _ in range(30):
            if fresh.is_terminal():
                break
            fresh.apply(int(rng.choice(fresh.legal_actions())))
        assert state.to_json() == before
        assert_views_equal(state.view(seat), view)


# -- the view fields the determinizer needs -----------------------------------------------
def test_view_fields_for_rebuilding_a_state():
    state = RULES.new_state(3, seed=8, gift_excludes_maki=True, start_player=2, **HIDE)
    rng = np.random.default_rng(8)
    while state.phase in SETUP:
        for seat in range(3):
            view = state.view(seat)
            assert view.gift_given == state.tiles[(seat + 1) % 3]
        state.apply(int(rng.choice(state.legal_actions())))
    for _ in range(60):
        for seat in range(3):
            view = state.view(seat)
            assert view.gift_given is None
            assert view.tiles_held == tuple(map(sum, state.tiles))
            assert view.cards_held == tuple(map(sum, state.cards))
            assert view.new_card == state.new_card
            assert (view.gift_excludes_maki, view.hide_opponent_hands) == (True, True)
            assert view.start_player_option == 2
        state.apply(int(rng.choice(state.legal_actions())))
    assert sample(state, 1, 0).config == state.config


def test_sample_state_refuses_another_games_view():
    with pytest.raises(TypeError):
        RULES.sample_state(object(), np.random.default_rng(0))  # type: ignore[arg-type]
