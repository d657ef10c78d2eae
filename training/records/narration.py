"""What a move reads as to each seat, and what is said after it: the words that ``play``,
``watch``, ``replay`` and the HTML viewer share.

A move of another seat that the seat could not tell from another move the mover could
have made (a Cornucopia bet, a card discarded face down) reads as hidden
(:func:`describe_move`); after a move come the game's report of how a turn ended (its
render module's ``turn_report``) and the end of a round, in games of several rounds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import numpy as np

from boardgame_envs.core.rules import PlayerView, State

# -- what is said after a move -------------------------------------------------------------
#: A game's report of how a turn ended: (the seat's view before the move, after it, the
#: seat) -> a line, or None while the turn goes on.
TurnReport = Callable[[PlayerView, PlayerView, int], "str | None"]


def turn_reporter(rules) -> TurnReport | None:
    """The game's ``turn_report`` (its render module's; a Cornucopia bid's outcome), or None
    for a game whose turns need no report."""
    return getattr(rules.renderer, "turn_report", None)


def rounds_done(state: State) -> int:
    """Rounds finished so far, for games that play several in one match (Factors and
    Multiples keeps ``round_scores``, one row per finished round); 0 for the others."""
    return len(getattr(state, "round_scores", ()))


def round_report(state: State) -> str:
    """The announcement of the round that just ended (Factors and Multiples)."""
    done = len(state.round_scores)
    went_out = state.went_out[-1]
    how = (
        f"P{went_out} went out"
        if went_out is not None
        else "blocked (all piles empty and nobody can play)"
    )
    last = ", ".join(f"P{s} {x:+d}" for s, x in enumerate(state.round_scores[-1]))
    totals = ", ".join(f"P{s} {int(x)}" for s, x in enumerate(state.scores()))
    rounds = state.config["rounds"]
    after = " (lowest total wins)" if done == rounds else f"; round {done + 1} is dealt"
    return (
        f"== round {done} of {rounds} over: {how} · this round {last} · totals {totals}{after} =="
    )


def phase_words(rules, phase: str) -> str:
    """``phase`` (one of the rules' constants, ``SEVEN_NAME``) as words a person reads: its
    render module's ``PHASE_WORDS`` entry ("name the value for the 7"); for a game without
    that table (a user's own), the constant in lower case with spaces ("seven name")."""
    words = getattr(rules.renderer, "PHASE_WORDS", None) or {}
    return words.get(phase) or phase.replace("_", " ").lower()


# -- what a move reads as to each seat -----------------------------------------------------
def secret_phases(rules) -> frozenset[str]:
    """The phases whose move the game's rules keep from the other seats for good (spec §7),
    its render module's ``SECRET_PHASES``: there, a move is hidden from a seat that cannot
    tell it from another legal move even when the mover's observation cannot either (a
    Factors and Multiples discard that ends the round, after which nobody's observation
    depends on the card discarded). Empty for a game without such phases."""
    return frozenset(getattr(rules.renderer, "SECRET_PHASES", ()))


#: How many positions consistent with what the watching seat knows (determinizations,
#: ``rules.sample_state``) are tried to find the moves the mover might have had instead.
DETERMINIZATIONS = 8


def describe_move(before: State, action: int, seat: int | None = None) -> str:
    """What the move ``action`` of ``before``'s player reads as to ``seat`` (None: a
    spectator, who sees everything): the move itself, unless ``seat`` is another seat that
    cannot tell it from a move the mover could have made instead; then the words those
    moves share and "(hidden from P<seat>)", e.g. ``bet (hidden from P0)`` for a Cornucopia
    bet, ``discard (hidden from P0)`` for a card discarded face down. Those other moves are
    the legal ones that look the same to ``seat`` (:func:`hidden_alternatives`), else, for
    a move with none (a forced discard: the mover's only legal move), the moves the mover
    might have had as far as ``seat`` knows (:func:`unseen_alternatives`)."""
    full = before.describe_action(action)
    if seat is None or before.current_player == seat:
        return full
    alike = hidden_alternatives(before, action, seat)
    if alike:
        texts = [full, *(before.describe_action(move) for move in alike)]
    else:
        texts = [full, *unseen_alternatives(before, action, seat)]
    if len(texts) == 1:
        return full
    return f"{_common_words(texts)} (hidden from P{seat})"


def hidden_alternatives(before: State, action: int, seat: int) -> list[int]:
    """The other legal moves that ``seat`` could not tell from ``action`` although the
    player who moved could (a Cornucopia bet's side and stake, a card discarded face down):
    after them ``seat``'s observation is the same and the mover's is not (two rotations of
    a symmetric tile are no secret: the mover's observation is the same too; in a phase of
    :func:`secret_phases` the mover's observation is not compared). Empty when the move is
    public, or the only one."""
    legal = before.legal_actions()
    if len(legal) < 2:
        return []
    mover = before.current_player
    secret = before.view(seat).phase in secret_phases(before.rules)

    def seen_after(move: int) -> tuple[np.ndarray, np.ndarray]:
        state = before.clone()
        state.apply(move)
        return state.observation(seat), state.observation(mover)

    seen, known = seen_after(action)
    alike = []
    for other in legal:
        if other != action:
            other_seen, other_known = seen_after(other)
            if np.array_equal(other_seen, seen) and (
                secret or not np.array_equal(other_known, known)
            ):
                alike.append(other)
    return alike


def unseen_alternatives(
    before: State, action: int, seat: int, samples: int = DETERMINIZATIONS
) -> list[str]:
    """The descriptions of moves, none of them legal in ``before``, that the mover might
    have made instead as far as ``seat`` knows, and that would have left ``seat``'s
    observation as ``action`` does: a card discarded face down when it was the mover's only
    legal move (had the mover held other cards, which ``seat`` cannot rule out, it could
    have discarded one of those, and ``seat`` would see the same).

    Those moves come from ``samples`` positions consistent with ``seat``'s view (drawn by
    ``rules.sample_state`` from a fixed seed, so that the same game always reads the same).
    Only moves the real position does not offer count: the ones it offers are judged by
    :func:`hidden_alternatives`. A sample in which such a move's outcome shows ``seat``
    something else (a card ``seat`` draws next, say) does not count; so a hidden move can
    still read in full, rarely, when every sample differs so. Empty for a game without a
    determinizer."""
    legal = set(before.legal_actions())
    seen: np.ndarray | None = None
    found: list[str] = []
    for sample in _determinizations(before, seat, samples):
        for move in sample.legal_actions():
            if move in legal:
                continue
            text = sample.describe_action(move)
            if text in found:
                continue
            if seen is None:
                seen = _observation_after(before, action, seat)
            if np.array_equal(_observation_after(sample, move, seat), seen):
                found.append(text)
    return found


def _determinizations(before: State, seat: int, samples: int) -> Iterator[State]:
    """``samples`` positions consistent with ``seat``'s view of ``before``, drawn one by one
    (from a fixed seed); none for a game without a determinizer."""
    rng = np.random.default_rng(0)
    view = before.view(seat)
    for _ in range(samples):
        try:
            sample = before.rules.sample_state(view, rng)
        except NotImplementedError:
            return
        yield sample


def _observation_after(state: State, action: int, seat: int) -> np.ndarray:
    after = state.clone()
    after.apply(action)
    return after.observation(seat)


def _common_words(texts: Sequence[str]) -> str:
    """The words the moves' descriptions start with alike ("bet" for "bet YES 2" and "bet
    NO 1"), or "a move" when none."""
    described = [text.split() for text in texts]
    common = []
    for words in zip(*described):
        if len(set(words)) > 1:
            break
        common.append(words[0])
    return " ".join(common) or "a move"
