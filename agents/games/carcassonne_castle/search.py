"""What the search knows about Carcassonne: The Castle: the provisional score of its leaf
evaluation, the tiles still to come, and the root's ranking of placements."""

from __future__ import annotations

from typing import Any

from boardgame_envs.carcassonne_castle.rules import PLACE
from boardgame_envs.core.rules import PlayerView, State


def final_scoring_now(state: State) -> list[float]:
    """The score track once the final scoring (keeps, courts, unfinished features with
    their wall tiles, bonus tiles) is applied to the position as it stands. No longer the
    search's evaluation: early on the keep bonus (the largest empty region, 40+ cells)
    swamps it, and it predicts the final score difference worse than the bare score track
    (mean squared error 1472 against 478 over 2,991 positions of heuristic games; the
    expected score below: 372)."""
    if not state.is_terminal():
        state._final_scoring()
    return state._score_keys()


#: Carcassonne's constants below were chosen by the squared error of the predicted final
#: score difference over 2,991 positions of 150 heuristic games (seeds 720,000 +); it
#: changes little over COMPLETION 0.5-0.9 and STACK_HALF 0-6 (372-400), more with the
#: keep (0: 395, 0.5: 372, 1: 440) and with a worth of followers in the supply (1: 372,
#: 4: 381, 8: 408).
#: Carcassonne: the chance that an unfinished feature with ``k`` open ports is finished
#: is taken as ``COMPLETION ** k`` (times the share of the stack still to come, below)
COMPLETION = 0.8
#: ... times ``stack / (stack + STACK_HALF * k)``: few tiles left finish little
STACK_HALF = 2.0
#: the keep bonus is the largest empty region at the end (spec §6.8 F1): estimated as the
#: empty cells that will stay empty (those now empty minus the tiles still to come),
#: at most the largest region now
KEEP_WEIGHT = 0.5
#: a follower still in the supply is worth this many points times the share of the 60
#: tiles still in the stack (what it may still claim)
FOLLOWER_WORTH = 0.0


def provisional_score(state: State) -> list[float]:
    """The score track plus what the position is expected to bring by the end: each
    unfinished tower, house or path its majority holder's at its value now times the
    chance it is finished; courts at their final value; the keep bonus at the empty region
    expected to remain; the bonus wall tiles. (The wall tiles that score unfinished
    features, and the doubling and extra-turn tiles, are left out.)"""
    if state.is_terminal():
        return state._score_keys()
    from boardgame_envs.carcassonne_castle.castle import MAX_SEGMENTS
    from boardgame_envs.carcassonne_castle.data import (
        BIGGER_KEEP,
        BONUS_POINTS,
        COURT,
        HOUSE,
        MARKET_X4,
        NUM_CASTLE_TILES,
        NUM_CELLS,
        PATH,
        TOWER,
    )

    castle = state.castle
    keys = [float(v) for v in state.scores_]
    stack = len(state.stack)
    kinds, opens, count, markets = castle.kind, castle.open, castle.count, castle.markets
    courts: list[list[int]] = [[], []]
    parent = castle.parent
    for root in range(castle.num_segments):
        if parent[root] != root:
            continue
        a, b = count[root], count[MAX_SEGMENTS + root]
        if a == b:
            continue
        seat = 0 if a > b else 1
        kind = kinds[root]
        if kind == COURT:
            courts[seat].append(markets[root])
        elif kind in (TOWER, HOUSE, PATH):
            k = opens[root]
            if k and stack:
                chance = COMPLETION**k * stack / (stack + STACK_HALF * k)
                keys[seat] += chance * castle.value(root)
    if FOLLOWER_WORTH:
        for seat in range(2):
            keys[seat] += FOLLOWER_WORTH * state.supply[seat] * stack / NUM_CASTLE_TILES
    held = [[kind for kind, _ in state.held[seat]] for seat in range(2)]
    for seat in range(2):
        upgraded = held[seat].count(MARKET_X4)
        for i, n in enumerate(sorted(courts[seat], reverse=True)):
            keys[seat] += (4 if i < upgraded else 3) * n
        keys[seat] += state.config["wall9_points"] * held[seat].count(BONUS_POINTS)
    sizes = []
    for seat in range(2):
        keep = state.keeps[seat]
        bonus = state.config["keep_bonus_tiles"] * held[seat].count(BIGGER_KEEP)
        sizes.append(0 if keep is None else keep[0] + bonus)
    if sizes[0] != sizes[1] and KEEP_WEIGHT:
        empty = NUM_CELLS - len(castle.history)
        region = min(castle.largest_empty_region(), max(0, empty - stack))
        keys[0 if sizes[0] > sizes[1] else 1] += KEEP_WEIGHT * region
    return keys


def turns_left(position: State | PlayerView) -> int:
    """Tiles (turns) still to come."""
    return position.stack_size


def rank_actions(heuristic: Any, view: PlayerView) -> list[int] | None:
    """The legal placements best first by the heuristic's values (other decisions: None)."""
    if view.phase != PLACE:
        return None
    values = heuristic.placement_values(view)
    return sorted(values, key=lambda a: -values[a])
