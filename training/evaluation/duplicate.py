"""Duplicate deals: every deal played in every seating, and intervals over deals.

Plain evaluation deals a fresh hand for every game, so two close agents measure the luck of
the deals as much as their play. Duplicate play (bridge's duplicate format; the Annual
Computer Poker Competition's seat-swapped deals) plays each deal once in every seating of the
agents at the table: with two players both seatings, with ``n`` seats the ``n`` rotations of
the lone agent's seat. A seat keeps its generator (the deal's seed decides the cards, tiles
and bags; each seat's agent is reseeded from the deal seed and its seat number, as in every
tournament), so the same deal gives the same cards in every seating and only the agents
change places.

Game ``g`` of a duplicate pairing of ``n`` seats is deal ``seed + g // n`` with the lone
agent at seat ``g % n``; the games of one deal are consecutive. Games of one deal are
correlated, so the interval is computed over deals: each deal's mean result over its
seatings, then Student's t interval of the mean of those (95%). Where every deal gives the
same mean (a one-sided pairing), the t interval would have no width; the Wilson interval of
that share over the deals is given instead.

    boardgame-envs eval wasabi --agents ismcts:preset=v1,seconds=0,ismcts:seconds=0 --duplicate
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from boardgame_envs.core.rules import InvalidConfigError


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (shared wins count fractionally): the
    interval of plain games, each dealt afresh."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def deal_and_seat(seed: int, g: int, num_players: int, duplicate: bool) -> tuple[int, int]:
    """Game ``g`` of a pairing: (its deal seed, the lone agent's seat). Plain: deal
    ``seed + g``; duplicate: deal ``seed + g // num_players``, each deal in every seating.
    Either way the lone agent sits at seat ``g % num_players``."""
    deal = seed + (g // num_players if duplicate else g)
    return deal, g % num_players


def check_duplicate_games(games: int, table_sizes: Sequence[int], flag: str = "--games") -> None:
    """``InvalidConfigError`` unless ``games`` is a whole number of deals at every table
    size (each deal is played once in every seating)."""
    for n in table_sizes:
        if games % n:
            sizes = ", ".join(str(k) for k in table_sizes)
            raise InvalidConfigError(
                f"{flag} {games} is not allowed with --duplicate at {n} players; allowed: a "
                f"multiple of every table size ({sizes}), as each deal is played in every "
                "seating"
            )


def deal_means(points: Sequence[float], seatings: int) -> list[float]:
    """Each deal's mean result over its ``seatings`` consecutive games."""
    if seatings < 1 or len(points) % seatings:
        raise ValueError(f"{len(points)} results are not whole deals of {seatings} seatings")
    return [sum(points[i : i + seatings]) / seatings for i in range(0, len(points), seatings)]


def t_quantile(df: int, p: float = 0.975) -> float:
    """Student's t quantile for ``df`` degrees of freedom (``p`` > 0.5), found by bisection
    on the t distribution's closed-form central probability for whole degrees of freedom."""
    if df < 1 or not 0.5 < p < 1:
        raise ValueError("t_quantile needs df >= 1 and 0.5 < p < 1")
    central = 2 * p - 1
    low, high = 0.0, 1.0
    while _t_central(high, df) < central:
        high *= 2
    for _ in range(100):
        mid = (low + high) / 2
        if _t_central(mid, df) < central:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def _t_central(t: float, df: int) -> float:
    """P(|T| < t) for Student's t with whole ``df`` (Abramowitz and Stegun 26.7.3-4)."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2:  # odd: 2/pi (theta + sin cos (1 + 2/3 c2 + 2*4/(3*5) c2^2 + ...))
        total, term = 0.0, 1.0
        for k in range(1, (df - 1) // 2 + 1):
            total += term
            term *= (2 * k) / (2 * k + 1) * c2
        series = math.sin(theta) * math.cos(theta) * total if df > 1 else 0.0
        return 2 / math.pi * (theta + series)
    total, term = 0.0, 1.0  # even: sin (1 + 1/2 c2 + 1*3/(2*4) c2^2 + ...)
    for k in range(1, df // 2 + 1):
        total += term
        term *= (2 * k - 1) / (2 * k) * c2
    return math.sin(theta) * total


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """Student's t 95% interval of the mean of ``values`` (independent draws), clipped to
    [0, 1]; where every value is the same, the Wilson interval of that share over
    ``len(values)`` trials. (0, 1) for fewer than two values."""
    count = len(values)
    if count < 2:
        return 0.0, 1.0
    mean = sum(values) / count
    variance = sum((v - mean) ** 2 for v in values) / (count - 1)
    if variance <= 1e-18:
        return wilson_interval(mean * count, count)
    half = t_quantile(count - 1) * math.sqrt(variance / count)
    return max(0.0, mean - half), min(1.0, mean + half)


def deal_interval(points: Sequence[float], seatings: int) -> tuple[float, float]:
    """The 95% interval of the lone agent's win share from duplicate games: the t interval
    over deals of each deal's mean over its ``seatings`` games (see :func:`mean_interval`)."""
    return mean_interval(deal_means(points, seatings))


def width_needed_games(width: float, at_games: int, target: float) -> float:
    """Games an interval of ``width`` at ``at_games`` games needs to narrow to ``target``
    (an interval's width shrinks as one over the square root of the games)."""
    return at_games * (width / target) ** 2 if target > 0 else math.inf
