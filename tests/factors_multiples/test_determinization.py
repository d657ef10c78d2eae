"""``rules.sample_state``: determinizations that show a seat exactly its view.

Positions come from seeded random matches of every player count and with every option; each
is sampled for every seat. The hidden parts are checked to vary, uniformly, over the places
they could be, while what the seat knows (its hand and discards, the play pile, the other
seats' revealed cards still held) stays put.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from boardgame_envs import InvalidStateError
from boardgame_envs.core.testing import (
    assert_views_equal,
    check_determinization,
    check_sample_reads_view_only,
)
from boardgame_envs.factors_multiples.data import NUM_CARDS, parse_cards
from boardgame_envs.factors_multiples.rules import (
    A_DISCARD,
    GAME_OVER,
    J_DIRECTION,
    K_ANSWER,
    K_DISCARD,
    PHASES,
    PLAY,
    SEVEN_NAME,
    SHOW_AND_DRAW,
    State,
    View,
)
from tests.factors_multiples.helpers import HAS_NATIVE, RULES, rules_for
from tests.factors_multiples.test_hidden_and_snapshots import resample_hidden
from tests.factors_multiples.test_playouts import INVARIANTS


def kept_reveals(view: View, s: int) -> list[int]:
    """Cards seat ``s`` showed and has not played since, as ``view.seat`` knows them."""
    played = {card for card, _ in view.play_pile}
    return [card for card in view.reveals[s] if card not in played]


def assert_known_cards_in_place(sample: State, view: View) -> None:
    """Where the seat knows a card is, the sample has it; every discard is a hidden one."""
    seat = view.seat
    assert sample.hands[seat] == list(view.hand)
    assert sample.own_discards[seat] == list(view.own_discards)
    assert [c for c, _ in sample.play_pile] == [c for c, _ in view.play_pile]
    hidden = set(sample.hidden_discard)
    for s in range(view.num_players):
        assert set(sample.own_discards[s]) <= hidden
        if s == seat:
            continue
        kept = set(kept_reveals(view, s))
        later = sample.own_discards[s][sample.reveal_discard_marks[s] :]
        assert kept <= set(sample.hands[s]) | set(later), f"seat {s} lost a revealed card"
        if view.reveal_discards[s] == 0:
            assert kept <= set(sample.hands[s]), f"seat {s}'s revealed card left its hand"


RARE_PHASES = (SEVEN_NAME, J_DIRECTION, K_DISCARD)


def positions(num_players: int, seeds: range, every: int, **options):
    """Positions of seeded random matches: every ``every``-th decision, every 7 / J / K
    discard decision, every third turn begun with all piles empty, and the final one."""
    for seed in seeds:
        state = RULES.new_state(num_players, seed=seed, **options)
        rng = np.random.default_rng(seed + 99)
        step = 0
        while not state.is_terminal():
            piles_out = state.phase in (PLAY, K_ANSWER) and not any(state.piles)
            if step % every == 0 or state.phase in RARE_PHASES or piles_out and step % 3 == 0:
                yield seed * 1000 + step, state
            state.apply(int(rng.choice(state.legal_actions())))
            step += 1
        yield seed * 1000 + step, state


CASES = [
    (2, {}, range(3), 10),
    (3, {}, range(3), 12),
    (4, {}, range(2), 10),
    (5, {}, range(2), 10),
    (3, {"k_discard_optional": True, "choose_after_refill": True}, range(2), 12),
    (2, {"a_needs_discard": True, "start_draw": "random", "rounds": 1}, range(3), 6),
    (4, {"rounds": 2}, range(2), 12),
]


@pytest.mark.parametrize("num_players, options, seeds, every", CASES)
def test_samples_show_every_seat_its_view_and_play_on(num_players, options, seeds, every):
    """check_determinization for every seat of each position (a fifth of them played to
    the end), the known cards in place, and the sample independent of hidden facts."""
    rng = np.random.default_rng(num_players)
    checked = 0
    for key, state in positions(num_players, seeds, every, **options):
        for seat in range(num_players):
            seed = 10_000 + key * 7 + seat  # never a match seed: the seeds then differ
            sample = check_determinization(
                state, seat, seed, invariants=INVARIANTS, play_to_end=checked % 5 == 0
            )
            assert sample.config == state.config and sample.seed != state.seed
            assert sample.round_scores == state.round_scores
            assert sample.went_out == state.went_out
            assert_known_cards_in_place(sample, state.view(seat))
            check_sample_reads_view_only(state, resample_hidden(state, seat, rng), seat, seed)
            checked += 1
    assert checked >= 100


@pytest.mark.native
@pytest.mark.skipif(not HAS_NATIVE, reason="factors_multiples is not compiled")
@pytest.mark.parametrize("num_players, options, seeds, every", CASES[:2] + CASES[4:6])
def test_samples_on_the_native_engine(num_players, options, seeds, every):
    """The compiled engine's rules sample through the reference: the same sample for the
    same view and generator, a native state showing the seat its view and playing on."""
    native_rules = rules_for("native")
    checked = 0
    for key, state in positions(num_players, seeds[:1], 3 * every, **options):
        native = native_rules.from_reference(state)
        for seat in range(num_players):
            seed = 10_000 + key * 7 + seat
            sample = check_determinization(
                native, seat, seed, invariants=INVARIANTS, play_to_end=checked % 10 == 0
            )
            expected = RULES.sample_state(state.view(seat), np.random.default_rng(seed))
            assert sample.engine == "native" and sample.to_json() == expected.to_json()
            assert_known_cards_in_place(sample, native.view(seat))
            checked += 1
    assert checked >= 10


def test_the_sampled_positions_cover_every_case():
    """Guard for the test above: its positions hold every decision type, finished matches,
    revealed cards that may have been discarded since, and turns begun with every pile
    empty (where samples must not be blocked), for every player count."""
    phases: Counter[str] = Counter()
    mixed: Counter[int] = Counter()
    blocked_checks: Counter[int] = Counter()
    for num_players, options, seeds, every in CASES:
        for _, state in positions(num_players, seeds, every, **options):
            phases[state.phase] += 1
            for seat in range(num_players):
                view = state.view(seat)
                # The bookkeeping the sampler relies on holds in the real position.
                later = state.own_discards[seat][state.reveal_discard_marks[seat] :]
                assert set(kept_reveals(view, seat)) <= {*state.hands[seat], *later}
                mixed[num_players] += any(
                    kept_reveals(view, s) and view.reveal_discards[s]
                    for s in range(num_players)
                    if s != seat
                )
                blocked_checks[num_players] += state.phase in (PLAY, K_ANSWER) and not any(
                    view.pile_sizes
                )
    assert set(phases) == {*PHASES, GAME_OVER}
    assert min(phases.values()) >= 5, phases
    assert all(mixed[n] >= 10 and blocked_checks[n] >= 10 for n in (2, 3, 4, 5)), (
        mixed,
        blocked_checks,
    )


def mid_game(num_players: int, seed: int, steps: int, **options) -> State:
    state = RULES.new_state(num_players, seed=seed, **options)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        state.apply(int(rng.choice(state.legal_actions())))
    return state


def where(sample: State, card: int) -> str:
    """The zone of ``card``: "hand s", "pile s", "discard s" or "leftover"."""
    for s in range(sample.num_players):
        if card in sample.hands[s]:
            return f"hand {s}"
        if card in sample.piles[s]:
            return f"pile {s}"
        if card in sample.own_discards[s]:
            return f"discard {s}"
    assert card in sample.hidden_discard
    return "leftover"


def find_position(predicate, num_players: int):
    """The first position of seeded random matches (and a seat) that satisfies ``predicate``."""
    for _key, state in positions(num_players, range(50), every=1):
        for seat in range(num_players):
            if predicate(state, state.view(seat)):
                return state.clone(), seat
    raise AssertionError("no such position in 50 matches")


def test_an_unseen_card_lands_in_every_unseen_place_uniformly():
    """A card the seat cannot see goes to each unseen place in proportion to its slots:
    each opponent's hand and discards, each pile (the seat's own too), the leftovers."""

    def wanted(state: State, view: View) -> bool:
        return (
            state.round == 0
            and len(view.play_pile) > 6
            and all(view.discard_counts)
            and all(view.pile_sizes)
            # no revealed card that may have been discarded: each is fixed in its hand
            and not any(
                kept_reveals(view, s) and view.reveal_discards[s]
                for s in range(3)
                if s != view.seat
            )
        )

    state, seat = find_position(wanted, 3)
    view = state.view(seat)
    seen = {*view.hand, *view.own_discards, *(c for c, _ in view.play_pile)}
    for s in range(3):
        if s != seat:
            seen |= set(kept_reveals(view, s))
    card = next(c for c in range(NUM_CARDS) if c not in seen)
    slots = {f"pile {s}": view.pile_sizes[s] for s in range(3)}
    slots["leftover"] = view.hidden_discard_size - sum(view.discard_counts)
    for s in range(3):
        if s != seat:
            slots[f"hand {s}"] = view.hand_sizes[s] - len(kept_reveals(view, s))
            slots[f"discard {s}"] = view.discard_counts[s]
    total = sum(slots.values())
    assert total == NUM_CARDS - len(seen)
    draws = 3000
    rng = np.random.default_rng(0)
    counts = Counter(where(RULES.sample_state(view, rng), card) for _ in range(draws))
    assert set(counts) == {zone for zone, size in slots.items() if size}
    for zone, size in slots.items():
        expected = draws * size / total
        sigma = (expected * (1 - size / total)) ** 0.5
        assert abs(counts[zone] - expected) < 5 * sigma + 1, (zone, counts, slots)


def test_pile_orders_and_later_seeds_vary():
    state = mid_game(2, seed=4, steps=20)
    view = state.view(0)
    rng = np.random.default_rng(1)
    samples = [RULES.sample_state(view, rng) for _ in range(400)]
    for s in range(2):
        tops = Counter(sample.piles[s][0] for sample in samples)
        # the top card of each pile takes many values, none of them a card the seat holds
        assert len(tops) >= 25 and not set(tops) & set(view.hand)
        assert max(tops.values()) < 40
    assert len({sample.seed for sample in samples}) == 400
    # ... so the next rounds are dealt differently too.
    later = set()
    for sample in samples[:30]:
        sample.round, sample.round_scores, sample.went_out = 1, [[0, 0]], [None]
        sample._start_round()
        later.add(tuple(sample.piles[0]))
    assert len(later) == 30


def test_revealed_cards_stay_in_hand_until_their_holder_discards():
    """A shown card not played since stays in its holder's hand in every sample; once the
    holder has discarded after showing, it lands in the hand or among those discards, in
    proportion to their slots."""

    def shown_and_kept(state: State, view: View) -> bool:
        return any(
            s != view.seat and len(kept_reveals(view, s)) >= 2 and not view.reveal_discards[s]
            for s in range(state.num_players)
        )

    state, seat = find_position(shown_and_kept, 3)
    view = state.view(seat)
    rng = np.random.default_rng(2)
    for s in range(3):
        if s != seat and not view.reveal_discards[s]:
            for _ in range(200):
                assert set(kept_reveals(view, s)) <= set(RULES.sample_state(view, rng).hands[s])

    def shown_then_discarded(state: State, view: View) -> bool:
        return any(
            s != view.seat and kept_reveals(view, s) and view.reveal_discards[s]
            for s in range(state.num_players)
        )

    state, seat = find_position(shown_then_discarded, 3)
    view = state.view(seat)
    s = next(s for s in range(3) if s != seat and kept_reveals(view, s) and view.reveal_discards[s])
    card = kept_reveals(view, s)[0]
    size, after = view.hand_sizes[s], view.reveal_discards[s]
    draws = 2000
    counts = Counter(where(RULES.sample_state(view, rng), card) for _ in range(draws))
    assert set(counts) == {f"hand {s}", f"discard {s}"}
    expected = draws * size / (size + after)
    assert abs(counts[f"hand {s}"] - expected) < 5 * (expected * after / (size + after)) ** 0.5
    # The true state agrees with that bookkeeping: the card is in one of those two places.
    assert where(state, card) in {f"hand {s}", f"discard {s}"}


def test_other_seats_discards_vary_and_the_seats_own_do_not():
    def wanted(state: State, view: View) -> bool:
        other = 1 - view.seat  # it discarded before its latest reveal: an unseen card
        return state.phase == PLAY and view.discard_counts[other] > view.reveal_discards[other]

    state, seat = find_position(wanted, 2)
    view = state.view(seat)
    rng = np.random.default_rng(3)
    samples = [RULES.sample_state(view, rng) for _ in range(300)]
    assert all(sample.own_discards[seat] == list(view.own_discards) for sample in samples)
    other = 1 - seat
    first = Counter(sample.own_discards[other][0] for sample in samples)
    assert len(first) >= 20


def test_a_turn_begun_with_every_pile_empty_is_never_blocked():
    """The round would have ended at the last turn's end (spec §4.6) had nobody a legal
    play: samples respect that, although a plain reshuffle of the same cards does not."""
    state = RULES.position([parse_cards("9♥"), parse_cards("3♠ 5♦ 6♣")], [[], []], value=8)
    view = state.view(0)
    assert view.legal_actions() == [SHOW_AND_DRAW]
    rng = np.random.default_rng(4)
    unconstrained = sum(resample_hidden(state, 0, rng)._is_blocked() for _ in range(400))
    assert unconstrained > 10  # about one deal in ten leaves seat 1 without a play
    for _ in range(400):
        sample = RULES.sample_state(view, rng)
        assert not sample._is_blocked()
        assert_views_equal(sample.view(0), view)


def test_the_sample_shares_no_mutable_object():
    state = mid_game(4, seed=8, steps=60)
    assert state.phase != GAME_OVER
    for seat in range(4):
        view = state.view(seat)
        sample = RULES.sample_state(view, np.random.default_rng(seat))

        def containers(obj, found):
            if isinstance(obj, (list, dict, set, np.ndarray)):
                found[id(obj)] = obj
            if isinstance(obj, (list, tuple, set)):
                for item in obj:
                    containers(item, found)
            elif isinstance(obj, dict):
                for item in obj.values():
                    containers(item, found)
            return found

        theirs = containers(list(vars(state).values()), {})
        theirs.update(containers([getattr(view, f) for f in view.__dataclass_fields__], {}))
        mine = containers([value for name, value in vars(sample).items() if name != "rules"], {})
        shared = set(mine) & set(theirs)
        assert not shared, [theirs[i] for i in shared]
        # Mutating every list of the sample leaves the view and the state alone.
        before, observation = state.to_json(), view.observation()
        for value in vars(sample).values():
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, list):
                        item.append(-1)
                value.append(-1)
        sample.config["rounds"] = 99
        assert state.to_json() == before
        assert np.array_equal(view.observation(), observation)
        assert_views_equal(state.view(seat), view)


def test_view_fields_added_for_sampling_are_public():
    """The added fields follow the public history: a discard counts for its seat, and a
    reveal starts the count of discards after it afresh."""
    state = RULES.position(
        [parse_cards("A♣ 4♦ 8♠"), parse_cards("3♣ 5♦ 9♥")],
        [parse_cards("Q♥ 2♣"), parse_cards("6♠ 10♦")],
        value=7,
    )
    state.apply(0)  # A
    assert state.phase == A_DISCARD
    state.apply(14 + 11)  # discard the Q
    view = state.view(1)
    assert view.discard_counts == (1, 0) and view.reveal_discards == (1, 0)
    assert view.options == tuple(state.config.items()) and view.turns_started == (1, 1)
    state.apply(SHOW_AND_DRAW)  # seat 1: 3 5 9 on 7, shows
    state.apply(SHOW_AND_DRAW)  # seat 0: 2 4 8 on 7, shows after its discard
    view = state.view(1)
    assert view.reveals[0] == tuple(parse_cards("2♣ 4♦ 8♠"))
    assert view.discard_counts == (1, 0) and view.reveal_discards == (0, 0)
    assert view.turns_started == (2, 2) and view.reveal_ages == (0, 1)
    assert view.start_player == 0 and view.round_scores == () and view.went_out == ()


def test_snapshots_carry_the_reveal_discard_marks():
    state = RULES.position(
        [parse_cards("A♣ 4♦ 8♠"), parse_cards("3♣ 5♦ 9♥")],
        [parse_cards("Q♥ 2♣"), parse_cards("6♠ 10♦")],
        value=7,
    )
    state.apply(0)
    state.apply(14 + 11)
    state.apply(SHOW_AND_DRAW)
    state.apply(SHOW_AND_DRAW)
    data = state.to_dict()
    assert data["reveal_discard_marks"] == [1, 0]
    assert RULES.from_dict(data).view(1).reveal_discards == (0, 0)
    del data["reveal_discard_marks"]  # an older snapshot: every discard may be after
    assert RULES.from_dict(data).view(1).reveal_discards == (1, 0)
    data["reveal_discard_marks"] = [2, 0]
    with pytest.raises(InvalidStateError, match="reveal_discard_marks"):
        RULES.from_dict(data)
