"""``rules.sample_state(view, rng)``: determinizations that show the seat exactly its view.

Hidden from a seat (spec §7): the deck order, the seed of later reshuffles, and the other
seats' bets before REVEAL. Everything else is public and must come back exactly.
"""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from boardgame_envs.core.testing import (
    assert_views_equal,
    check_determinization,
    check_sample_reads_view_only,
)
from boardgame_envs.cornucopia.data import BLUE, BLUE_PER_YELLOW, NUM_TYPES, STAKES, YELLOW
from boardgame_envs.cornucopia.rules import BET, BID, CARD, DECLARE, GAME_OVER, NO, YES, State
from tests.cornucopia.helpers import EXAMPLE_2, RULES, bet, bid, table
from tests.cornucopia.test_hidden_and_snapshots import resample_hidden
from tests.cornucopia.test_playouts import INVARIANTS

#: Player count and variant of each playout batch: every count, the variant at both ends.
CONFIGS = [(2, False), (3, False), (4, False), (5, False), (2, True), (5, True)]
GAMES = 6
EVERY = 9  # sample every 9th decision of a game (and its final position)
PLAY_TO_END_EVERY = 15  # play every 15th sample on to the end, fully checked


def positions(num_players: int, variant: bool, games: int = GAMES) -> list[State]:
    """Positions of seeded random games: every ``EVERY``-th decision and the end."""
    found = []
    for game in range(games):
        seed = 1000 * num_players + 100 * variant + game
        state = RULES.new_state(num_players, seed=seed, variant_red3=variant)
        rng = np.random.default_rng(seed)
        step = 0
        while not state.is_terminal():
            if step % EVERY == game % EVERY:
                found.append(state.clone())
            state.apply(int(rng.choice(state.legal_actions())))
            step += 1
        found.append(state)
    return found


def funds(chips) -> int:
    return chips[BLUE] + BLUE_PER_YELLOW * chips[YELLOW]


def hidden_bettors(state: State, seat: int) -> list[int]:
    """Seats whose committed bet ``seat`` cannot see."""
    if state.bets_revealed:
        return []
    return [s for s, b in enumerate(state.bets) if b is not None and s != seat]


def assert_public_facts_equal(sample: State, state: State, seat: int) -> None:
    """The whole snapshot agrees except the deck order, the seed and the bets ``seat``
    cannot see (a finished game keeps no bettors, so its snapshot agrees too)."""
    a, b = json.loads(sample.to_json()), json.loads(state.to_json())
    assert sorted(a.pop("deck")) == sorted(b.pop("deck"))
    a.pop("seed"), b.pop("seed")
    for s in hidden_bettors(state, seat):
        a["bets"][s] = b["bets"][s] = "hidden"
    assert a == b


@pytest.mark.parametrize("num_players, variant", CONFIGS)
def test_samples_show_every_seat_its_view(num_players, variant):
    phases = Counter()
    hidden_bets = 0
    count = 0
    for state in positions(num_players, variant):
        for seat in range(num_players):
            sample = check_determinization(
                state,
                seat,
                seed=count,
                invariants=INVARIANTS,
                play_to_end=count % PLAY_TO_END_EVERY == 0,
            )
            assert_public_facts_equal(sample, state, seat)
            phases[state.phase] += 1
            hidden_bets += len(hidden_bettors(state, seat))
            count += 1
    expected = {BID, BET, CARD, GAME_OVER} | ({DECLARE} if variant else set())
    assert set(phases) == expected, phases
    assert count >= 150 * num_players // 2
    if num_players > 2:  # with 2 players the one bettor bets last: REVEAL comes at once
        assert hidden_bets >= 20


@pytest.mark.parametrize("num_players, variant", CONFIGS)
def test_samples_read_the_view_only(num_players, variant):
    rng = np.random.default_rng(num_players)
    changed = 0
    count = 0
    for state in positions(num_players, variant, games=3):
        for seat in range(num_players):
            other = resample_hidden(state, seat, rng)
            changed += other.deck != state.deck or other.bets != state.bets
            check_sample_reads_view_only(state, other, seat, seed=count)
            count += 1
    assert changed >= count * 0.9  # the resampler really changed hidden facts


@pytest.mark.parametrize("engine", ["native"], indirect=True)
@pytest.mark.parametrize("num_players, variant", [(3, False), (4, True)])
def test_samples_of_native_views(engine, num_players, variant):
    """The two tests above, shorter, on the native engine: its views go to the reference's
    determinizer and the samples come back native."""
    rng = np.random.default_rng(num_players)
    count = 0
    for state in positions(num_players, variant, games=1):
        for seat in range(num_players):
            sample = check_determinization(
                state,
                seat,
                seed=count,
                invariants=INVARIANTS,
                play_to_end=count % PLAY_TO_END_EVERY == 0,
            )
            assert sample.engine == "native"
            assert_public_facts_equal(sample, state, seat)
            check_sample_reads_view_only(state, resample_hidden(state, seat, rng), seat, count)
            count += 1


def mid_game(num_players: int = 3, steps: int = 60, seed: int = 5) -> State:
    state = RULES.new_state(num_players, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(int(rng.choice(state.legal_actions())))
    return state


def test_deck_order_is_a_uniform_permutation_of_the_public_composition():
    state = mid_game()
    view = state.view(1)
    counts, size = np.array(view.deck_counts), view.deck_size
    assert size >= 20  # a realistic pile
    rng = np.random.default_rng(0)
    samples = 3000
    by_place = np.zeros((size, NUM_TYPES), dtype=int)
    orders = set()
    for _ in range(samples):
        deck = RULES.sample_state(view, rng).deck
        by_place[np.arange(size), deck] += 1
        orders.add(tuple(deck))
    assert len(orders) == samples  # ~10^30 orders: repeats would mean a poor shuffle
    expected = samples * counts / size
    for place in range(size):  # every place of the pile gets every type, in proportion
        spread = 5 * np.sqrt(expected) + 1
        assert np.all(np.abs(by_place[place] - expected) <= spread), (place, by_place[place])
        assert np.all((by_place[place] > 0) == (counts > 0))
    assert by_place.sum(axis=0).tolist() == (samples * counts).tolist()


def test_later_reshuffles_are_drawn_fresh():
    """The seed is hidden: after the deck runs out, the new deck's order varies per sample."""
    state = table(EXAMPLE_2, n=2, deck="P", deck_size=1)  # the next draw empties the deck
    view = state.view(0)
    discard = Counter(state.discard)
    rng = np.random.default_rng(1)
    tops, seeds, decks = Counter(), set(), set()
    for _ in range(600):
        sample = RULES.sample_state(view, rng)
        seeds.add(sample.seed)
        sample.apply(5)  # bid 6
        bet(sample, "YES", 1)  # REVEAL: P drawn, the discard pile becomes the deck
        assert sample.exhaustions == 1 and sample.pending == 2
        assert Counter(sample.deck) == discard
        tops[sample.deck[-1]] += 1
        decks.add(tuple(sample.deck))
    assert len(seeds) == 600 and len(decks) == 600
    total = sum(discard.values())
    for crop, copies in discard.items():  # the new top card: each type, in proportion
        expected = 600 * copies / total
        assert abs(tops[crop] - expected) <= 5 * np.sqrt(expected) + 1, (crop, tops)


def test_hidden_bets_take_every_legal_value_uniformly():
    # Turn player 3; bettors 0, 1, 2 in that order. Seat 0 holds only a yellow (stakes 1-3
    # by converting it), seat 1 one blue (stake 1 only); seat 2 is about to bet.
    chips = {0: (1, 0, 2), 1: (0, 1, 2), 2: (0, 2, 2), 3: (0, 3, 2)}
    state = table(EXAMPLE_2, n=4, chips=chips, turn=3, deck="P E C T G W")
    bid(state, 6)
    bet(state, "NO", 3)  # seat 0
    bet(state, "YES", 1)  # seat 1
    assert state.phase == BET and state.current_player == 2
    rng = np.random.default_rng(2)
    samples = 2400
    for seat in (2, 3):  # the next bettor and the turn player see neither bet
        view = state.view(seat)
        seen = {0: Counter(), 1: Counter()}
        for _ in range(samples):
            sample = RULES.sample_state(view, rng)
            assert sample.bets[2] is None and sample.bets[3] is None
            for s in (0, 1):
                seen[s][tuple(sample.bets[s])] += 1
        legal = {
            s: {(side, stake) for side in (YES, NO) for stake in STAKES if stake <= funds(chips[s])}
            for s in (0, 1)
        }
        assert len(legal[0]) == 6 and len(legal[1]) == 2
        for s in (0, 1):
            assert set(seen[s]) == legal[s], (seat, s, seen[s])
            expected = samples / len(legal[s])
            for value, hits in seen[s].items():
                assert abs(hits - expected) <= 5 * np.sqrt(expected), (seat, s, value, hits)
    # A bettor's own bet is never redrawn, and the others' samples fund correctly at REVEAL.
    view = state.view(1)
    for _ in range(200):
        sample = RULES.sample_state(view, rng)
        assert sample.bets[1] == [YES, 1]
        sample.apply(sample.legal_actions()[0])  # seat 2 bets: REVEAL, stakes funded
        assert sample.phase == CARD and sample.bets_revealed
        for invariant in INVARIANTS:
            invariant(sample)


def test_a_bettor_sees_its_own_bet_and_a_bettor_without_funds_has_none():
    chips = {0: (0, 3, 2), 1: (0, 2, 2), 2: (0, 0, 2)}  # seat 2 cannot bet
    state = table(EXAMPLE_2, n=3, chips=chips, turn=0, deck="P")
    bid(state, 6)
    bet(state, "NO", 2)  # seat 1 is the only bettor: REVEAL at once
    assert state.phase == CARD
    for seat in range(3):
        sample = RULES.sample_state(state.view(seat), np.random.default_rng(seat))
        assert sample.bets == [None, [NO, 2], None] and sample.bet_order == [1]


def mutable_ids(obj, seen: set[int] | None = None) -> set[int]:
    """Ids of every list, dict, set and array reachable through containers of ``obj``."""
    seen = set() if seen is None else seen
    if isinstance(obj, (list, dict, set, np.ndarray)):
        if id(obj) in seen:
            return seen
        seen.add(id(obj))
    if isinstance(obj, dict):
        for value in obj.values():
            mutable_ids(value, seen)
    elif isinstance(obj, (list, tuple, set)):
        for value in obj:
            mutable_ids(value, seen)
    return seen


def test_a_sample_shares_no_mutable_object_with_the_view_or_the_state():
    chips = {0: (1, 0, 2), 1: (0, 1, 2), 2: (0, 2, 2), 3: (0, 3, 2)}
    betting = table(EXAMPLE_2, n=4, chips=chips, turn=3, deck="P E")
    bid(betting, 4)
    bet(betting, "NO", 3)
    cases = [betting, mid_game(2, 40), mid_game(5, 150), positions(3, True, games=1)[-1]]
    for state in cases:
        for seat in range(state.num_players):
            view = state.view(seat)
            before_view = state.view(seat)
            before = state.to_json()
            sample = RULES.sample_state(view, np.random.default_rng(seat))
            assert set(sample.__dict__) == set(state.__dict__)  # every attribute is set
            theirs = mutable_ids(state.__dict__) | mutable_ids(view.__dict__)
            ours = mutable_ids(sample.__dict__)
            assert not ours & theirs
            # Playing the sample on changes neither the view nor the original.
            rng = np.random.default_rng(0)
            while not sample.is_terminal():
                sample.apply(int(rng.choice(sample.legal_actions())))
            assert state.to_json() == before
            assert_views_equal(view, before_view, "view after the sample was played")


def test_views_of_another_game_are_refused():
    other = object.__new__(type("View", (), {}))
    with pytest.raises(TypeError, match="cornucopia View"):
        RULES.sample_state(other, np.random.default_rng(0))
