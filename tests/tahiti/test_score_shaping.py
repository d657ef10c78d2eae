"""The "score" reward shaping knows no secret (v2): a seat's shaped reward reads the scores as
that seat may know them (``State.scores_known_to``), the other seats' favourite-tile bonus left
out until the final scoring (spec §7), so that resampling another seat's favourite tile leaves
it unchanged, on the AEC env and on the compiled batched env alike."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs.core.env import TurnBasedEnv
from boardgame_envs.core.native import native_module
from boardgame_envs.tahiti.rules import favourite_bonus, score_charts
from tests.tahiti.helpers import ENGINES, HAS_NATIVE, NATIVE, RULES

DELIVER, HARVESTS = 68, range(63, 67)
LEARNER = 0


def rules_for(engine: str):
    return RULES if engine == "python" else NATIVE


def busy_move(legal: list[int], rng: np.random.Generator) -> int:
    """Deliver, else harvest, else any legal move: a game in which scores keep changing."""
    preferred = [a for a in legal if a == DELIVER] or [a for a in legal if a in HARVESTS]
    return int(rng.choice(preferred or legal))


def margin(scores: list[float]) -> float:
    """LEARNER's score minus the mean of the others'."""
    own = scores[LEARNER]
    return own - (sum(scores) - own) / (len(scores) - 1)


def resampled(data: dict, seat: int) -> dict:
    """The same deal with seat ``seat``'s favourite tile redrawn, as LEARNER's view allows:
    the unused tile where there is one (2 players), else another opponent's (swapped)."""
    out = {**data, "favourites": list(data["favourites"])}
    if out["unused_favourites"]:
        out["favourites"][seat], out["unused_favourites"] = (
            data["unused_favourites"][0],
            [data["favourites"][seat]],
        )
    else:
        other = next(s for s in range(len(out["favourites"])) if s not in (LEARNER, seat))
        out["favourites"][seat], out["favourites"][other] = (
            data["favourites"][other],
            data["favourites"][seat],
        )
    assert out["favourites"][LEARNER] == data["favourites"][LEARNER]
    assert out["favourites"] != data["favourites"]
    return out


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_scores_known_to_leave_out_the_others_favourite_bonus(engine, num_players):
    state = rules_for(engine).new_state(num_players, seed=11)
    rng = np.random.default_rng(5)
    seen_a_secret = False
    while True:
        reference = RULES.from_dict(state.to_dict())
        totals = score_charts(reference.charts, reference.favourites)
        bonus = favourite_bonus(reference.charts, reference.favourites)
        for seat in range(num_players):
            known = state.scores_known_to(seat)
            assert known == reference.scores_known_to(seat)
            if state.is_terminal():  # every favourite is revealed for the final scoring
                assert known == state.scores()
                continue
            assert known == [
                float(total if p == seat else total - bonus[p]) for p, total in enumerate(totals)
            ]
            seen_a_secret = seen_a_secret or known != state.scores()
        if state.is_terminal():
            break
        state.apply(busy_move(state.legal_actions(), rng))
    assert seen_a_secret
    with pytest.raises(ValueError):
        state.scores_known_to(num_players)


def shaped_rewards(engine: str, start: dict, moves: list[int]) -> tuple[list[float], list]:
    """LEARNER's reward after each move of ``moves`` from ``start`` in the AEC env with
    reward="score" (the last move's, which holds the outcome, left out), and the scores."""
    rules = rules_for(engine)
    env = TurnBasedEnv(rules, len(start["favourites"]), reward="score")
    env.reset(seed=0)
    # a fresh deal: every score is 0, so the potentials of the reset hold for `start` too
    assert env.state.scores() == [0.0] * env.num_players
    env.state = rules.from_dict(start)
    rewards, scores = [], []
    for move in moves:
        env.step(move)
        rewards.append(env.rewards[env.possible_agents[LEARNER]])
        scores.append(env.state.scores())
    assert env.state.is_terminal()
    return rewards[:-1], scores


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_another_seats_favourite_leaves_the_learners_shaped_rewards_unchanged(engine, num_players):
    rules = rules_for(engine)
    start = rules.new_state(num_players, seed=20 + num_players).to_dict()
    state = rules.from_dict(start)
    rng = np.random.default_rng(num_players)
    moves = []
    while not state.is_terminal():
        moves.append(busy_move(state.legal_actions(), rng))
        state.apply(moves[-1])
    rewards, scores = shaped_rewards(engine, start, moves)
    assert any(r != 0.0 for r in rewards)
    for seat in range(1, num_players):
        other_rewards, other_scores = shaped_rewards(engine, resampled(start, seat), moves)
        assert other_scores != scores  # the secret does change the scores ...
        assert other_rewards == rewards  # ... and nothing of it reaches the learner


@pytest.mark.native
@pytest.mark.skipif(not HAS_NATIVE, reason="no native tahiti engine")
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_the_batched_env_keeps_the_secret_too(num_players):
    pcg64 = native_module().Pcg64
    # from the middle of a game, once an opponent's favourite tile counts in its score
    state = NATIVE.new_state(num_players, seed=3)
    rng = np.random.default_rng(num_players)
    other = None
    while other is None:
        state.apply(busy_move(state.legal_actions(), rng))
        assert not state.is_terminal()
        start = state.to_dict()
        for seat in range(1, num_players):
            data = resampled(start, seat)
            if NATIVE.from_dict(data).scores() != state.scores():
                other = data
    starts = [start, other]
    env = NATIVE.native_class.VecEnv(2, num_players, True, False, True, 1 / 30, 10**6)
    row = env.row_size
    buffers = [
        np.zeros((2, row), np.float32),
        np.zeros((2, NATIVE.action_size), np.uint8),
        np.zeros(2, np.float32),
        np.zeros(2, np.uint8),
        np.zeros(2, np.uint8),
        np.zeros(2, np.uint8),
    ]
    for i, data in enumerate(starts):
        native = NATIVE.from_dict(data)._native
        policies = [0] * num_players  # random opponents: the same moves on the same masks
        rng_index = [0] * num_players
        env.start(i, native, LEARNER, policies, rng_index, [pcg64.from_seed(7)], None, *buffers)
    masks, rewards, done = buffers[1], buffers[2], buffers[3]
    leaked = [margin(env.state(i).scores()) for i in range(2)]  # v1's potentials
    would_have_leaked = False
    for _ in range(10_000):
        assert (masks[0] == masks[1]).all()
        move = busy_move(np.flatnonzero(masks[0]).tolist(), rng)
        env.step(np.array([move, move], np.int64), *buffers)
        if done[0] or buffers[4][0]:
            break
        assert rewards[0] == rewards[1]
        now = [margin(env.state(i).scores()) for i in range(2)]
        would_have_leaked |= now[0] - leaked[0] != now[1] - leaked[1]
        leaked = now
    assert done[0] and done[1]
    assert would_have_leaked  # shaping on the full scores would have told the learner
