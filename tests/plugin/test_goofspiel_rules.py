"""The example game's rules engine (examples/goofspiel), tested as every game is.

Pure rules tests need no registration: ``goofspiel_game`` is imported from the example's
folder (see :func:`tests.plugin.helpers.import_example`), and the contract is checked with
the library's own helpers (:mod:`boardgame_envs.core.testing`).
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from boardgame_envs import IllegalActionError, InvalidConfigError, InvalidStateError
from boardgame_envs.core import testing
from tests.plugin.helpers import import_example

import_example()

from goofspiel_game import encoding, render  # noqa: E402
from goofspiel_game.rules import (  # noqa: E402
    MAX_CARDS,
    GoofspielRules,
    Round,
    State,
    round_winner,
)

RULES = GoofspielRules()
PLAYER_COUNTS = (2, 3, 4)


# -- invariants checked at every step of the playouts ---------------------------------------
def cards_conserved(state: State) -> None:
    """Each seat's hand, its revealed bids and its face-down bid are the cards 1..N once."""
    every = list(range(1, state.config["cards"] + 1))
    for seat, hand in enumerate(state.hands):
        bid = state.bids[seat]
        spent = [r.bids[seat] for r in state.history] + ([] if bid is None else [bid])
        assert sorted(hand + spent) == every, f"seat {seat}: hand {hand}, bids {spent}"
        assert hand == sorted(hand), f"seat {seat}: hand {hand} is not sorted"


def prizes_conserved(state: State) -> None:
    """The prizes won, the face-up one and the face-down deck are the cards 1..N once."""
    shown = [r.prize for r in state.history] + ([state.prize] if state.prize else [])
    assert sorted(shown + state.prize_deck) == list(range(1, state.config["cards"] + 1))
    assert bool(state.prize) != state.is_terminal(), "a face-up prize exactly while playing"


def scores_consistent(state: State) -> None:
    """Scores are the prizes won, and no more than all prizes together."""
    n, cards = state.num_players, state.config["cards"]
    won = [sum(r.prize for r in state.history if r.winner == s) for s in range(n)]
    assert state.scores() == [float(w) for w in won]
    assert sum(won) <= cards * (cards + 1) // 2
    for r in state.history:
        assert r.winner == round_winner(r.bids)


def bidding_in_seat_order(state: State) -> None:
    """The seats that bid this round are a prefix of the seat order; the mover is next."""
    placed = [bid is not None for bid in state.bids]
    assert placed == sorted(placed, reverse=True) and not all(placed)
    if not state.is_terminal():
        assert state.current_player == placed.count(True)


INVARIANTS = (cards_conserved, prizes_conserved, scores_consistent, bidding_in_seat_order)


# -- the rules --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "bids, winner",
    [
        ((5, 3), 0),
        ((5, 5, 3), 2),  # the tied 5s cancel: the 3 wins
        ((4, 4), None),  # all matched: nobody
        ((3, 2, 3, 1), 1),
        ((2, 2, 6, 6), None),
        ((1, 2, 3, 4), 3),
        ((7, 7, 7, 1), 3),
    ],
)
def test_round_winner_is_the_highest_unmatched_bid(bids, winner):
    assert round_winner(bids) == winner


def test_a_round_reveals_the_bids_and_awards_the_prize():
    state = RULES.new_state(3, seed=0)
    prize, next_prize = state.prize, state.prize_deck[0]
    for card in (5, 5, 3):
        state.apply(card - 1)
    assert state.history == [Round(prize, (5, 5, 3), 2)]
    assert state.scores() == [0.0, 0.0, float(prize)]
    assert state.prize == next_prize and state.bids == [None, None, None]
    assert state.hands[0] == [1, 2, 3, 4, 6] and state.hands[2] == [1, 2, 4, 5, 6]
    assert state.current_player == 0


def test_a_tied_round_gives_the_prize_to_nobody_and_the_game_ends_after_n_rounds():
    state = RULES.new_state(2, seed=4, cards=3)
    for card in (2, 2, 3, 1, 1, 3):  # a tie, then seat 0 wins, then seat 1 wins
        state.apply(card - 1)
    assert state.is_terminal() and state.current_player == -1 and state.prize == 0
    prizes = [r.prize for r in state.history]
    assert [r.winner for r in state.history] == [None, 0, 1]
    assert state.scores() == [float(prizes[1]), float(prizes[2])]
    assert not state.legal_action_mask().any()
    expected = [0] if prizes[1] > prizes[2] else [1]
    assert state.winners() == expected
    assert sorted(state.returns()) == [-1.0, 1.0]


def test_every_seat_has_the_same_fixed_spaces():
    for n in PLAYER_COUNTS:
        for cards in (1, 6, MAX_CARDS):
            state = RULES.new_state(n, seed=1, cards=cards)
            for seat in range(n):
                observation = state.view(seat).observation()
                assert observation.shape == RULES.observation_shape == (137,)
                assert observation.dtype == np.float32
            assert state.legal_action_mask().shape == (RULES.action_size,) == (13,)
    assert encoding.OBSERVATION_SIZE == encoding.LAST_WINNER + 4  # the layout table adds up


def test_illegal_actions_are_refused_with_the_phase_and_the_legal_ones():
    state = RULES.new_state(2, seed=0, cards=4)
    state.apply(2)  # seat 0 bids 3
    state.apply(0)  # seat 1 bids 1: round over
    before = state.to_json()
    with pytest.raises(IllegalActionError, match=r"action 2 \(bid 3 for prize \d+\) is not legal "
                       r"in phase BID for seat 0; legal: 0, 1, 3"):  # fmt: skip
        state.apply(2)
    for action in (4, 13, -1):
        with pytest.raises(IllegalActionError):
            state.apply(action)
    with pytest.raises(IllegalActionError, match="not an integer"):
        state.apply(1.0)
    assert state.to_json() == before


@pytest.mark.parametrize(
    "options",
    [{"cards": 0}, {"cards": 14}, {"cards": True}, {"cards": "6"}, {"rounds": 3}],
)
def test_bad_options_and_player_counts_are_refused(options):
    with pytest.raises(InvalidConfigError):
        RULES.new_state(2, seed=0, **options)


@pytest.mark.parametrize("n", [1, 5, True])
def test_player_counts_outside_2_to_4_are_refused(n):
    with pytest.raises(InvalidConfigError):
        RULES.new_state(n, seed=0)


def test_a_seed_reproduces_the_deal():
    decks = {tuple(RULES.new_state(2, seed=s, cards=8).prize_deck) for s in range(20)}
    assert len(decks) > 15
    assert RULES.new_state(3, seed=7).to_json() == RULES.new_state(3, seed=7).to_json()


# -- random playouts, continuations, hidden information ------------------------------------
@pytest.mark.parametrize("n", PLAYER_COUNTS)
@pytest.mark.parametrize("cards", [6, 1, 3, MAX_CARDS])
def test_random_playouts_keep_the_contract(n, cards):
    games = 40 if cards == 6 else 10
    stats = testing.random_playouts(RULES, n, range(games), INVARIANTS, {"cards": cards})
    assert stats.games == games
    assert stats.longest == n * cards == RULES.max_decisions(n, {"cards": cards})
    assert stats.actions_seen == set(range(cards))
    assert stats.phases_seen == {"BID"}


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_clone_and_json_continue_identically(n):
    for seed, at_step in [(0, 0), (1, 3), (2, 7), (3, 11)]:
        testing.check_continuations(RULES, n, seed, at_step)


def states_mid_round(n: int, cards: int = 6, games: int = 4):
    """Positions of random games where some seats have bid this round, the mover's turn."""
    for seed in range(games):
        state = RULES.new_state(n, seed=seed, cards=cards)
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            yield state.clone()
            state.apply(int(rng.choice(state.legal_actions())))
        yield state


def resample_hidden(state: State, seat: int, rng: np.random.Generator) -> State:
    """``state`` with what ``seat`` cannot see drawn anew, written independently of the
    game's determinizer: the other seats' bids of this round and the prize deck's order."""
    other = state.clone()
    other.prize_deck = [int(p) for p in rng.permutation(other.prize_deck)]
    for s, bid in enumerate(other.bids):
        if s != seat and bid is not None:
            cards = sorted([*other.hands[s], bid])
            new_bid = cards.pop(int(rng.integers(len(cards))))
            other.hands[s], other.bids[s] = cards, new_bid
    other._mask = None
    for invariant in INVARIANTS:
        invariant(other)
    return other


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_hidden_bids_and_the_prize_order_do_not_reach_a_seats_observation(n):
    rng = np.random.default_rng(n)
    changed = 0
    for state in states_mid_round(n):
        for seat in range(n):
            testing.check_hidden_information(state, seat, resample_hidden, rng)
            # nor its text and picture
            other = resample_hidden(state, seat, rng)
            changed += other.to_json() != state.to_json()
            assert render.render_text(other, seat) == render.render_text(state, seat)
            assert np.array_equal(render.render_rgb(other, seat), render.render_rgb(state, seat))
    assert changed > 0  # the resampler did change hidden facts


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_a_seats_own_private_facts_do_reach_its_observation(n):
    """The converse: another bid of its own, or another hand, changes what it sees."""
    for state in states_mid_round(n):
        for seat in range(n):
            bid = state.bids[seat]
            if bid is None or not state.hands[seat]:
                continue
            other = state.clone()
            other.hands[seat] = sorted([*other.hands[seat][1:], bid])
            other.bids[seat] = state.hands[seat][0]
            assert not np.array_equal(
                other.view(seat).observation(), state.view(seat).observation()
            )


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_determinization_shows_the_seat_its_own_view(n):
    for i, state in enumerate(states_mid_round(n, games=2)):
        for seat in range(n):
            testing.check_determinization(state, seat, seed=i, invariants=INVARIANTS,
                                          play_to_end=i % 5 == 0)  # fmt: skip
            other = resample_hidden(state, seat, np.random.default_rng(i))
            testing.check_sample_reads_view_only(state, other, seat, seed=i)


def test_determinization_draws_every_hidden_arrangement():
    """Seat 2 of 3, after seats 0 and 1 bid in the first round of 3 cards: each of their
    bids is any of 3 cards and the 2 face-down prizes lie in either order: 3 * 3 * 2 samples."""
    state = RULES.new_state(3, seed=0, cards=3)
    state.apply(0)
    state.apply(2)
    view = state.view(2)
    rng = np.random.default_rng(0)
    samples = {
        (tuple(s.bids[:2]), tuple(s.prize_deck))
        for s in (RULES.sample_state(view, rng) for _ in range(400))
    }
    assert len(samples) == 18


# -- snapshots --------------------------------------------------------------------------------
def test_a_snapshot_is_a_copy_and_loads_back():
    state = RULES.new_state(4, seed=3, cards=5)
    for action in (0, 1, 2, 3, 4, 0):
        state.apply(action)
    data = state.to_dict()
    data["hands"][1].clear()
    data["history"].clear()
    assert state.to_dict() != data
    loaded = RULES.from_json(state.to_json())
    assert loaded.to_json() == state.to_json()
    assert loaded.view(2).observation().tolist() == state.view(2).observation().tolist()


def _mid_game() -> dict:
    state = RULES.new_state(3, seed=5, cards=4)
    for card in (4, 2, 4, 1):  # a round (seat 1 wins with the unmatched 2), then seat 0 bids 1
        state.apply(card - 1)
    return state.to_dict()


def _set(path: str, value):
    def edit(data: dict) -> None:
        *keys, last = path.split(".")
        target = data
        for key in keys:
            target = target[int(key)] if key.isdigit() else target[key]
        target[int(last) if last.isdigit() else last] = value

    return edit


@pytest.mark.parametrize(
    "edit, field",
    [
        (_set("game", "wasabi"), "game"),
        (_set("version", 1), "version"),
        (_set("version", False), "version"),
        (_set("num_players", 5), "num_players"),
        (_set("config", {"cards": 4, "rounds": 2}), "config"),
        (_set("config", {"cards": 20}), "config"),
        (_set("hands.0", [1, 2, 3]), "hands[0]"),  # seat 0's face-down 1 held again
        (_set("hands.1", [1, 3, 4.0]), "hands[1][2]"),
        (_set("hands.2", [1, 2]), "hands[2]"),  # a card missing
        (_set("bids", [None, 2, None]), "bids"),  # not in seat order
        (_set("bids", [1, 2, 3]), "bids"),  # a full round unrevealed
        (_set("bids", [1, None]), "bids"),
        (_set("prize", 0), "prize"),
        (_set("prize_deck", [1, 1]), "prize_deck"),
        (_set("prize_deck", "1 2"), "prize_deck"),
        (_set("history.0.winner", 0), "history[0].winner"),
        (_set("history.0.winner", 1.0), "history[0].winner"),
        (_set("history.0.bids", [4, 2]), "history[0].bids"),
        (_set("history.0.prize", 9), "history[0].prize"),
        (_set("history", [{"prize": 1}]), "history[0]"),
    ],
)
def test_a_broken_snapshot_is_refused_naming_the_field(edit, field):
    data = _mid_game()
    RULES.from_dict(data)  # the unbroken one loads
    edit(data)
    with pytest.raises(InvalidStateError, match=f"goofspiel snapshot: {re.escape(field)}"):
        RULES.from_json(json.dumps(data))


def test_snapshots_missing_or_extra_fields_or_not_json_are_refused():
    data = _mid_game()
    del data["prize_deck"]
    with pytest.raises(InvalidStateError, match="missing fields \\['prize_deck'\\]"):
        RULES.from_dict(data)
    with pytest.raises(InvalidStateError, match="unknown fields \\['rng'\\]"):
        RULES.from_dict({**_mid_game(), "rng": 1})
    with pytest.raises(InvalidStateError, match="not a JSON snapshot"):
        RULES.from_json("{")
    with pytest.raises(InvalidStateError, match="not an object"):
        RULES.from_json("[]")


def test_a_finished_game_loads_back():
    state = RULES.new_state(2, seed=9, cards=2)
    state.playout(seed=1)
    assert state.is_terminal()
    assert RULES.from_json(state.to_json()).to_json() == state.to_json()


# -- presentation -------------------------------------------------------------------------------
def test_text_shows_a_seat_its_own_bid_and_hides_the_others():
    state = RULES.new_state(3, seed=2)
    state.apply(5)  # seat 0 bids 6
    state.apply(0)  # seat 1 bids 1
    mine = render.render_text(state, 1)
    assert "P1 (you): score 0 · cards 2 3 4 5 6 · bid 1" in mine
    assert "P0: score 0 · cards 1 2 3 4 5 6 · bid face down" in mine
    assert "prize deck" not in mine
    spectator = state.render_text()
    assert "P0: score 0 · cards 1 2 3 4 5 · bid 6" in spectator
    assert "prize deck (top first)" in spectator
    assert "key:" not in state.render_text(1, legend=False)
    assert state.describe_action(3) == f"bid 4 for prize {state.prize}"
    assert state.describe_action(13) == "action 13 (out of range 0..12)"


def test_the_picture_is_an_rgb_array():
    state = RULES.new_state(4, seed=2, cards=MAX_CARDS)
    state.apply(12)
    picture = state.render_rgb()
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    assert not np.array_equal(render.render_rgb(state, 1), picture)  # seat 0's bid face down
