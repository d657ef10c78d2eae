"""Tournaments: agents against each other, with confidence intervals and ratings.

Every pairing (A, B) is played as A alone at the table against ``n - 1`` copies of B, A's
seat rotating over every seat in turn (game g: seat g % n), ``games`` games per pairing,
each game seeded (game g of every pairing deals the same cards: common random numbers).
With two players (A, B) and (B, A) are the same games seen from each side, so they are
played once. Games are driven through the rules engine directly, and each agent acts on
its own seat's view only.

Per pairing it reports wins / draws (a shared first place) / losses, the win share (a
shared win counts 1/k) with its 95% Wilson interval, and the agent's mean game score;
over the whole tournament, openskill (Plackett-Luce) ratings fitted to every lone seat's
result against each opposing seat.

    python -m training.evaluate --game factors_multiples --agents heuristic,random --games 1000
"""

from __future__ import annotations

import csv
import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

from agents.base import Agent, make_agent, split_agent_specs
from boardgame_envs.core.rules import InvalidConfigError, Rules, State
from boardgame_envs.registry import make_rules
from training.cli_args import at_least, check_fields, parse_args, parse_int_list


@dataclass
class Args:
    game: str = "factors_multiples"
    """game id (see ``boardgame-envs list``)"""
    agents: str = "heuristic,random"
    """comma-separated agents: random, heuristic, ismcts[:option=value,...],
    ppo:<model.zip or run dir>"""
    num_players: str = "2"
    """table sizes, comma-separated (e.g. "2,4"); each must be allowed by the game"""
    games: int = 200
    """games per pairing (per direction with 3 or more players)"""
    seed: int = 0
    """seed of game 0; game g uses seed + g"""
    out: str = ""
    """folder for results.md, results.csv, results.json and heatmap PNGs ("" = print only)"""
    progress: bool = True
    """show a progress bar"""
    workers: int = 1
    """processes that play games in parallel (the results are the same for any number)"""

    def __post_init__(self) -> None:
        check_fields(self, {"games": at_least(1), "seed": at_least(0), "workers": at_least(1)})
        parse_int_list("num_players", self.num_players)


@dataclass
class PairingResult:
    """The lone ``agent`` against ``num_players - 1`` copies of ``opponent``."""

    agent: str
    opponent: str
    num_players: int
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    win_points: float = 0.0
    score_sum: float = 0.0
    opponent_score_sum: float = 0.0  # mean over the opposing seats, summed over games
    seconds: float = 0.0

    @property
    def win_share(self) -> float:
        return self.win_points / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson_interval(self.win_points, self.games)

    @property
    def mean_score(self) -> float:
        return self.score_sum / self.games if self.games else 0.0

    decisions: int = 0  # the lone agent's decisions with two or more legal actions
    decision_seconds: float = 0.0  # the time it took over them

    @property
    def seconds_per_decision(self) -> float:
        return self.decision_seconds / self.decisions if self.decisions else 0.0

    def record(self, game: GameRecord) -> None:
        seat, scores, winners = game.seat, game.scores, game.winners
        self.decisions += game.decisions
        self.decision_seconds += game.decision_seconds
        self.games += 1
        self.score_sum += scores[seat]
        self.opponent_score_sum += (sum(scores) - scores[seat]) / (len(scores) - 1)
        if seat in winners:
            self.win_points += 1 / len(winners)
            if len(winners) == 1:
                self.wins += 1
            else:
                self.draws += 1
        else:
            self.losses += 1

    def mirrored(self) -> PairingResult:
        """The same two-player games seen from the opponent's side."""
        return PairingResult(
            self.opponent,
            self.agent,
            2,
            self.games,
            self.losses,
            self.draws,
            self.wins,
            self.games - self.win_points,
            self.opponent_score_sum,
            self.score_sum,
            self.seconds,
        )  # the opponent's decision times are not measured: left at zero

    def as_row(self) -> dict:
        low, high = self.ci95
        return {
            "agent": self.agent,
            "opponent": self.opponent,
            "num_players": self.num_players,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_share": round(self.win_share, 4),
            "ci95_low": round(low, 4),
            "ci95_high": round(high, 4),
            "mean_score": round(self.mean_score, 3),
            "seconds_per_decision": round(self.seconds_per_decision, 5),
        }


@dataclass
class Tournament:
    game: str
    results: list[PairingResult] = field(default_factory=list)
    ratings: dict[str, tuple[float, float]] = field(default_factory=dict)  # mu, sigma

    def result(self, agent: str, opponent: str, num_players: int = 2) -> PairingResult:
        for r in self.results:
            if (r.agent, r.opponent, r.num_players) == (agent, opponent, num_players):
                return r
        raise KeyError((agent, opponent, num_players))


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (shared wins count fractionally)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class GameRecord:
    """What a tournament keeps of one game: the lone agent's seat, the scores, the
    winners, the rating keys (higher is better) and the lone agent's thinking time."""

    seat: int
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    keys: tuple[float, ...]
    decisions: int
    decision_seconds: float


def play_game(rules: Rules, agents: list[Agent], seed: int, **options) -> State:
    """One game, seat i played by ``agents[i]``; each agent is reseeded from ``seed``."""
    return _play(rules, agents, seed, None, options)[0]


def _play(
    rules: Rules, agents: list[Agent], seed: int, timed_seat: int | None, options: dict
) -> tuple[State, int, float]:
    """A game, and the decisions (two or more legal actions) of ``timed_seat`` with the
    seconds they took."""
    state = rules.new_state(len(agents), seed=seed, **options)
    for seat, agent in enumerate(agents):
        agent.reset(seed * 7919 + seat)
    decisions, seconds = 0, 0.0
    while not state.is_terminal():
        seat = state.current_player
        view = state.view(seat)
        if seat == timed_seat and len(state.legal_actions()) > 1:
            started = time.perf_counter()
            action = agents[seat].act(view)
            seconds += time.perf_counter() - started
            decisions += 1
        else:
            action = agents[seat].act(view)
        state.apply(action)
    return state, decisions, seconds


def play_one(rules: Rules, lone: Agent, field_agents: list[Agent], seed: int, g: int) -> GameRecord:
    """Game ``g`` of a pairing: deal ``seed + g``, the lone agent at seat ``g % n``."""
    n = len(field_agents) + 1
    seat = g % n
    table = list(field_agents)
    table.insert(seat, lone)
    state, decisions, seconds = _play(rules, table, seed + g, seat, {})
    return GameRecord(
        seat,
        tuple(state.scores()),
        tuple(state.winners()),
        tuple(state._score_keys()),
        decisions,
        seconds,
    )


def play_pairing(
    rules: Rules,
    lone: tuple[str, Agent],
    field: tuple[str, list[Agent]],
    games: int,
    seed: int,
    on_game=None,
) -> PairingResult:
    """``lone`` agent against the ``field`` agents (one per other seat), seats rotated."""
    (lone_name, lone_agent), (field_name, field_agents) = lone, field
    result = PairingResult(lone_name, field_name, len(field_agents) + 1)
    started = time.perf_counter()
    for g in range(games):
        record = play_one(rules, lone_agent, field_agents, seed, g)
        result.record(record)
        if on_game is not None:
            on_game(record)
    result.seconds = time.perf_counter() - started
    return result


# -- parallel games: each worker process builds its agents from their specs ---------------
_WORKER_AGENTS: dict[tuple[str, str, int], Agent] = {}


def _worker_agent(game: str, spec: str, index: int) -> Agent:
    key = (game, spec, index)
    if key not in _WORKER_AGENTS:
        _WORKER_AGENTS[key] = make_agent(spec, game)
    return _WORKER_AGENTS[key]


def _play_task(task: tuple[str, str, str, int, int, int]) -> GameRecord:
    game, lone, other, n, seed, g = task
    field_agents = [_worker_agent(game, other, i + 1) for i in range(n - 1)]
    return play_one(make_rules(game), _worker_agent(game, lone, 0), field_agents, seed, g)


def _play_parallel(tasks: list[tuple], workers: int, on_game) -> list[GameRecord]:
    """Play ``tasks`` in ``workers`` processes; the records come back in task order, so
    the results are those of one process."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")  # no inherited torch or thread state
    records = []
    with context.Pool(workers) as pool:
        for record in pool.imap(_play_task, tasks, chunksize=1):
            records.append(record)
            on_game(record)
    return records


def evaluate_against(
    agent: Agent,
    game: str,
    num_players: int,
    opponents: list[str],
    games: int,
    seed: int,
    name: str = "agent",
) -> list[PairingResult]:
    """``agent`` alone against each opponent kind (used by training's periodic evaluation)."""
    rules = make_rules(game)
    return [
        play_pairing(
            rules,
            (name, agent),
            (spec, [make_agent(spec, game) for _ in range(num_players - 1)]),
            games,
            seed,
        )
        for spec in opponents
    ]


class _Ratings:
    """openskill Plackett-Luce ratings from lone-seat vs opposing-seat results."""

    def __init__(self) -> None:
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()
        self.ratings: dict[str, object] = {}

    def update(self, lone: str, other: str, record: GameRecord) -> None:
        keys, seat = record.keys, record.seat
        for opponent_seat in range(len(keys)):
            if opponent_seat == seat:
                continue
            a = self.ratings.setdefault(lone, self.model.rating(name=lone))
            b = self.ratings.setdefault(other, self.model.rating(name=other))
            ranks = [-keys[seat], -keys[opponent_seat]]  # rank 1 is best; equal ranks tie
            [[a], [b]] = self.model.rate([[a], [b]], ranks=ranks)
            self.ratings[lone], self.ratings[other] = a, b

    def table(self) -> dict[str, tuple[float, float]]:
        return {name: (r.mu, r.sigma) for name, r in self.ratings.items()}


def run_tournament(
    game: str,
    agent_specs: list[str],
    table_sizes: list[int],
    games: int,
    seed: int = 0,
    progress: bool = True,
    agents: dict[str, Agent] | None = None,
    workers: int = 1,
) -> Tournament:
    """Play every pairing of ``agent_specs`` at every table size.

    ``agents`` maps specs to ready agent objects (e.g. the policy being trained); other
    specs are built with ``make_agent``, one instance per seat. ``workers`` > 1 plays the
    games in that many processes (specs only), with the same results as one process.
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InvalidConfigError(f"workers={workers!r} is not allowed; allowed: an integer >= 1")
    if workers > 1 and agents:
        raise InvalidConfigError("workers > 1 plays agents given by spec only, not objects")
    rules = make_rules(game)
    if len(set(agent_specs)) < 2:
        raise InvalidConfigError(f"a tournament needs two different agents; got {agent_specs}")
    for n in table_sizes:
        rules.check_num_players(n)
    given = agents or {}

    def instances(spec: str, count: int) -> list[Agent]:
        if spec in given:
            return [given[spec]] * count
        return [make_agent(spec, game) for _ in range(count)]

    lone_agents = {spec: instances(spec, 1)[0] for spec in agent_specs}
    field_agents = {spec: instances(spec, max(table_sizes) - 1) for spec in agent_specs}
    pairings = [
        (a, b, n)
        for n in table_sizes
        for i, a in enumerate(agent_specs)
        for j, b in enumerate(agent_specs)
        if (i < j if n == 2 else i != j)
    ]
    tournament = Tournament(game)
    ratings = _Ratings()
    bar = tqdm(total=len(pairings) * games, disable=not progress, desc=f"eval {game}", unit="game")
    if workers > 1:
        tasks = [(game, a, b, n, seed, g) for a, b, n in pairings for g in range(games)]
        records = iter(_play_parallel(tasks, workers, lambda record: bar.update()))
    for lone, other, n in pairings:
        result = PairingResult(lone, other, n)
        started = time.perf_counter()
        for g in range(games):
            if workers > 1:
                record = next(records)
            else:
                record = play_one(rules, lone_agents[lone], field_agents[other][: n - 1], seed, g)
                bar.update()
            result.record(record)
            ratings.update(lone, other, record)
        result.seconds = time.perf_counter() - started
        tournament.results.append(result)
        if n == 2:
            tournament.results.append(result.mirrored())
    bar.close()
    tournament.ratings = ratings.table()
    return tournament


def markdown_table(tournament: Tournament) -> str:
    lines = [
        f"### {tournament.game}: the lone agent against the field, seats rotated",
        "",
        "| players | agent | opponent | games | W | D | L | win share | 95% CI | mean score "
        "| s/decision |",
        "|---:|---|---|---:|---:|---:|---:|---:|---|---:|---:|",
    ]
    for r in tournament.results:
        low, high = r.ci95
        score = f"{r.mean_score:.2f}"
        thinking = f"{r.seconds_per_decision:.4f}" if r.decisions else "–"
        lines.append(
            f"| {r.num_players} | {r.agent} | {r.opponent} | {r.games} | {r.wins} | {r.draws} "
            f"| {r.losses} | {r.win_share:.3f} | [{low:.3f}, {high:.3f}] | {score} "
            f"| {thinking} |"
        )
    lines += ["", "| agent | rating μ | σ | μ − 3σ |", "|---|---:|---:|---:|"]
    for name, (mu, sigma) in sorted(tournament.ratings.items(), key=lambda kv: -kv[1][0]):
        lines.append(f"| {name} | {mu:.2f} | {sigma:.2f} | {mu - 3 * sigma:.2f} |")
    return "\n".join(lines)


def write_outputs(tournament: Tournament, out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    rows = [r.as_row() for r in tournament.results]
    paths = [out / "results.md", out / "results.csv", out / "results.json"]
    paths[0].write_text(markdown_table(tournament) + "\n")
    with paths[1].open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    paths[2].write_text(
        json.dumps(
            {
                "game": tournament.game,
                "results": rows,
                "ratings": {k: {"mu": mu, "sigma": s} for k, (mu, s) in tournament.ratings.items()},
            },
            indent=2,
        )
    )
    for n in sorted({r.num_players for r in tournament.results}):
        paths.append(save_heatmap(tournament, n, out / f"heatmap_{n}p.png"))
    return paths


def save_heatmap(tournament: Tournament, num_players: int, path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    results = [r for r in tournament.results if r.num_players == num_players]
    names = list(dict.fromkeys([r.agent for r in results] + [r.opponent for r in results]))
    grid = np.full((len(names), len(names)), np.nan)
    for r in results:
        grid[names.index(r.agent), names.index(r.opponent)] = r.win_share
    fig, ax = plt.subplots(figsize=(1.6 + 1.2 * len(names), 1.2 + 1.0 * len(names)))
    image = ax.imshow(grid, vmin=0, vmax=1, cmap="RdYlGn")
    ax.set_xticks(range(len(names)), labels=[_short(n) for n in names], rotation=30, ha="right")
    ax.set_yticks(range(len(names)), labels=[_short(n) for n in names])
    for i in range(len(names)):
        for j in range(len(names)):
            if not np.isnan(grid[i, j]):
                ax.text(j, i, f"{grid[i, j]:.2f}", ha="center", va="center")
    ax.set_xlabel(f"opponent ({num_players - 1} seat{'s' if num_players > 2 else ''})")
    ax.set_ylabel("agent (1 seat)")
    ax.set_title(f"{tournament.game}, {num_players} players: win share")
    fig.colorbar(image, ax=ax)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def _short(name: str) -> str:
    return name if len(name) <= 24 else "…" + name[-23:]


def main(args: Args) -> Tournament:
    specs = split_agent_specs(args.agents)
    sizes = parse_int_list("num_players", args.num_players)
    tournament = run_tournament(
        args.game, specs, sizes, args.games, args.seed, args.progress, workers=args.workers
    )
    print(markdown_table(tournament))
    if args.out:
        for path in write_outputs(tournament, Path(args.out)):
            print(f"wrote {path}")
    return tournament


if __name__ == "__main__":
    main(parse_args(Args))
