"""Tournaments: agents against each other, with confidence intervals and ratings.

Every pairing (A, B) is played as A alone at the table against ``n - 1`` copies of B, A's
seat rotating over every seat in turn (game g: seat g % n), ``games`` games per pairing,
each game seeded (game g of every pairing deals the same cards: common random numbers).
With two players (A, B) and (B, A) are the same games seen from each side, so they are
played once. Games are driven through the rules engine directly, and each agent acts on
its own seat's view only.

With ``--duplicate`` every deal is played in every seating instead (game g: deal seed + g // n,
seat g % n; see ``boardgame_envs.training.evaluation.duplicate``), and the intervals are
computed over deals.

Per pairing it reports wins / draws (a shared first place) / losses, the win share (a
shared win counts 1/k) with its 95% interval (Wilson over games; with duplicate deals,
Student's t over deals), and the agent's mean game score;
over the whole tournament, openskill (Plackett-Luce) ratings fitted to every lone seat's
result against each opposing seat.

    boardgame-envs eval factors_multiples --agents heuristic,random --games 1000
    boardgame-envs eval --agents my_agents.py:FirstLegal,heuristic --workers 2 --save-games games

From Python, :func:`evaluate` plays the same tournament and returns the same tables::

    from boardgame_envs.training.evaluation import evaluate, markdown_table

    tournament = evaluate("wasabi", {"mine": "my_agents.py:FirstLegal", "heuristic": "heuristic"})
    print(markdown_table(tournament))
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

from boardgame_envs.agents.base import Agent, as_agent
from boardgame_envs.agents.specs import make_agent, resolve_agent_spec, split_agent_specs
from boardgame_envs.core.rules import InvalidConfigError, Rules, State, is_integer
from boardgame_envs.registry import make_rules
from boardgame_envs.training.cli_args import (
    at_least,
    check_fields,
    check_game,
    check_output_folder,
    one_of,
    parse_args,
    parse_int_list,
)
from boardgame_envs.training.evaluation.duplicate import (
    check_duplicate_games,
    deal_and_seat,
    deal_interval,
    wilson_interval,
)
from boardgame_envs.training.parallel import BACKENDS, WorkerError, check_backend, run_tasks


@dataclass
class Args:
    game: str
    """game id (see ``boardgame-envs list``)"""
    agents: str = "heuristic,random"
    """comma-separated agents: random, heuristic, ismcts[:option=value,...], ppo:<model> (a
    model .zip, a run dir, or a shipped policy: ppo:<game>, ppo:<game>@3p; add ,device=cuda
    for a GPU), net:<network> and ismcts-net:<network>[,options] (a policy-value network
    alone and the search guided by it: a .pt file, a run dir or a shipped name), or your
    own: module.path:attr or path/to/file.py:attr (an Agent subclass, a
    factory function or an object with act(view); worker processes and Ray tasks import it
    themselves). ismcts stops each decision at 0.25 s by default, so its tables depend on the
    machine's speed; ismcts:seconds=0 (iterations alone) gives reproducible tables"""
    num_players: str = "2"
    """table sizes, comma-separated (e.g. "2,4"); each must be allowed by the game"""
    games: int = 200
    """games per pairing (per direction with 3 or more players)"""
    lone: str = ""
    """play only the pairings in which this agent (one of --agents) sits alone against the
    others ("" = every pairing, with 3 or more players both directions of each)"""
    seed: int = 0
    """seed of game 0; game g uses seed + g"""
    duplicate: bool = False
    """duplicate deals: every deal played in every seating (2 players: both; n players: the
    lone agent in each seat), game g dealt from seed + g // n; intervals over deals. --games
    must then be a multiple of every table size"""
    out: str = ""
    """folder for results.md, results.csv, results.json and heatmap PNGs ("" = print only)"""
    progress: bool = True
    """show a progress bar"""
    workers: int = 1
    """processes (or Ray tasks at a time) that play games in parallel; the results are the
    same for any number"""
    backend: str = "local"
    """where games are played: local (this machine's processes) or ray (Ray tasks; needs the
    [ray] extra)"""
    ray_address: str = ""
    """with --backend ray: a running cluster to join, host:port, ray://host:port or auto
    ("" = start a local Ray instance with --workers CPUs)"""
    save_games: str = ""
    """folder to save every game in, one JSON record each (<agent>-vs-<opponent>-<n>p-<game
    index>.json: deal seed, agents, actions), for boardgame-envs replay ("" = none)"""

    def __post_init__(self) -> None:
        check_game(self)
        check_fields(self, TOURNAMENT_ALLOWED)
        sizes = parse_int_list("num_players", self.num_players)
        if self.duplicate:
            check_duplicate_games(self.games, sizes)
        if self.out:
            check_output_folder("--out", self.out)
        if self.save_games:
            check_output_folder("--save-games", self.save_games)


#: What the tournament options accept (shared with ``boardgame_envs.training.evaluation.league``).
TOURNAMENT_ALLOWED = {
    "games": at_least(1),
    "seed": at_least(0),
    "workers": at_least(1),
    "backend": one_of(*BACKENDS),
}


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
    seatings: int = 0  # duplicate deals: the games of each deal (0: plain games)
    points: list[float] = field(default_factory=list)  # the lone agent's win share per game

    @property
    def win_share(self) -> float:
        return self.win_points / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """Wilson over games; with duplicate deals, Student's t over deals."""
        if self.seatings and self.points:
            return deal_interval(self.points, self.seatings)
        return wilson_interval(self.win_points, self.games)

    @property
    def deals(self) -> int:
        return self.games // self.seatings if self.seatings else self.games

    @property
    def mean_score(self) -> float:
        return self.score_sum / self.games if self.games else 0.0

    decisions: int = 0  # the lone agent's decisions with two or more legal actions
    decision_seconds: float = 0.0  # the time it took over them
    field_decisions: int = 0  # the same, over the field's seats
    field_seconds: float = 0.0

    @property
    def seconds_per_decision(self) -> float:
        return self.decision_seconds / self.decisions if self.decisions else 0.0

    def record(self, game: GameRecord) -> None:
        seat, scores, winners = game.seat, game.scores, game.winners
        self.decisions += game.decisions
        self.decision_seconds += game.decision_seconds
        self.field_decisions += game.field_decisions
        self.field_seconds += game.field_seconds
        self.games += 1
        self.score_sum += scores[seat]
        self.opponent_score_sum += (sum(scores) - scores[seat]) / (len(scores) - 1)
        self.points.append(1 / len(winners) if seat in winners else 0.0)
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
            agent=self.opponent,
            opponent=self.agent,
            num_players=2,
            games=self.games,
            wins=self.losses,
            draws=self.draws,
            losses=self.wins,
            win_points=self.games - self.win_points,
            score_sum=self.opponent_score_sum,
            opponent_score_sum=self.score_sum,
            seconds=self.seconds,
            decisions=self.field_decisions,
            decision_seconds=self.field_seconds,
            field_decisions=self.decisions,
            field_seconds=self.decision_seconds,
            seatings=self.seatings,
            points=[1.0 - p for p in self.points],
        )

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
        } | ({"deals": self.deals, "interval": "t over deals"} if self.seatings else {})


@dataclass
class Tournament:
    game: str
    results: list[PairingResult] = field(default_factory=list)
    ratings: dict[str, tuple[float, float]] = field(default_factory=dict)  # mu, sigma
    duplicate: bool = False  # every deal played in every seating

    def result(self, agent: str, opponent: str, num_players: int = 2) -> PairingResult:
        for r in self.results:
            if (r.agent, r.opponent, r.num_players) == (agent, opponent, num_players):
                return r
        raise KeyError((agent, opponent, num_players))


@dataclass(frozen=True)
class GameRecord:
    """What a tournament keeps of one game: the lone agent's seat, the scores, the
    winners, the rating keys (higher is better), the thinking time (decisions with two
    or more legal actions) of the lone agent and of the field's seats together, and every
    action applied, forced ones included (with the deal seed, they replay the game)."""

    seat: int
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    keys: tuple[float, ...]
    decisions: int
    decision_seconds: float
    field_decisions: int = 0
    field_seconds: float = 0.0
    actions: tuple[int, ...] = ()


def play_game(rules: Rules, agents: list[Agent], seed: int, **options) -> State:
    """One game, seat i played by ``agents[i]``; each agent is reseeded from ``seed``."""
    return _play(rules, agents, seed, options)[0]


def _play(
    rules: Rules, agents: list[Agent], seed: int, options: dict
) -> tuple[State, list[int], list[float], list[int]]:
    """A game, with each seat's decisions (two or more legal actions) and their seconds,
    and every action applied."""
    state = rules.new_state(len(agents), seed=seed, **options)
    for seat, agent in enumerate(agents):
        agent.reset(seed * 7919 + seat)
    decisions, seconds = [0] * len(agents), [0.0] * len(agents)
    actions: list[int] = []
    while not state.is_terminal():
        seat = state.current_player
        view = state.view(seat)
        if len(state.legal_actions()) > 1:
            started = time.perf_counter()
            action = agents[seat].act(view)
            seconds[seat] += time.perf_counter() - started
            decisions[seat] += 1
        else:
            action = agents[seat].act(view)
        state.apply(action)
        actions.append(int(action))
    return state, decisions, seconds, actions


def play_one(
    rules: Rules,
    lone: Agent,
    field_agents: list[Agent],
    seed: int,
    g: int,
    duplicate: bool = False,
) -> GameRecord:
    """Game ``g`` of a pairing: deal ``seed + g``, the lone agent at seat ``g % n``; with
    ``duplicate``, deal ``seed + g // n`` (each deal in every seating)."""
    n = len(field_agents) + 1
    deal, seat = deal_and_seat(seed, g, n, duplicate)
    table = list(field_agents)
    table.insert(seat, lone)
    state, decisions, seconds, actions = _play(rules, table, deal, {})
    return GameRecord(
        seat,
        tuple(state.scores()),
        tuple(state.winners()),
        tuple(state._score_keys()),
        decisions[seat],
        seconds[seat],
        sum(decisions) - decisions[seat],
        sum(seconds) - seconds[seat],
        tuple(actions),
    )


def play_pairing(
    rules: Rules,
    lone: tuple[str, Agent],
    field: tuple[str, list[Agent]],
    games: int,
    seed: int,
    on_game=None,
    duplicate: bool = False,
) -> PairingResult:
    """``lone`` agent against the ``field`` agents (one per other seat), seats rotated
    (with ``duplicate``, each deal in every seating)."""
    (lone_name, lone_agent), (field_name, field_agents) = lone, field
    n = len(field_agents) + 1
    result = PairingResult(lone_name, field_name, n, seatings=n if duplicate else 0)
    started = time.perf_counter()
    for g in range(games):
        record = play_one(rules, lone_agent, field_agents, seed, g, duplicate)
        result.record(record)
        if on_game is not None:
            on_game(record)
    result.seconds = time.perf_counter() - started
    return result


# -- parallel games: each worker builds its agents from their specs ------------------------
_WORKER_AGENTS: dict[tuple[str, str, int], Agent] = {}


def _worker_agent(game: str, spec: str, index: int) -> Agent:
    key = (game, spec, index)
    if key not in _WORKER_AGENTS:
        try:
            _WORKER_AGENTS[key] = make_agent(spec, game)
        except Exception as error:
            raise WorkerError(
                f"agent {spec!r} could not be built on a worker ({type(error).__name__}: {error})"
            ) from None
    return _WORKER_AGENTS[key]


def _play_task(task: tuple) -> GameRecord:
    """One game of a pairing, from plain data: what a worker process or a Ray task runs
    (game, lone spec, field spec, table size, seed, game index[, duplicate])."""
    game, lone, other, n, seed, g, *rest = task
    duplicate = bool(rest and rest[0])
    field_agents = [_worker_agent(game, other, i + 1) for i in range(n - 1)]
    lone_agent = _worker_agent(game, lone, 0)
    return play_one(make_rules(game), lone_agent, field_agents, seed, g, duplicate)


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
    agents: Mapping[str, Agent | str] | None = None,
    workers: int = 1,
    backend: str = "local",
    ray_address: str = "",
    lone: str = "",
    save_games: str | Path | None = None,
    kept: KeptPairings | None = None,
    duplicate: bool = False,
) -> Tournament:
    """Play every pairing of ``agent_specs`` at every table size (with ``lone``, only those
    in which that agent sits alone).

    ``agents`` maps names of ``agent_specs`` to a ready agent object (e.g. the policy being
    trained; one object then plays every seat it has) or to the spec it is built from (the
    name is then only its label in the tables); any other name is a spec itself. Specs are
    built with ``make_agent``, one instance per seat. ``workers`` > 1 or ``backend="ray"``
    plays the games elsewhere (specs only, a file's path made absolute first: see
    ``boardgame_envs.training.parallel``), with the same results as one process. A game that fails
    on a worker stops the tournament with an ``InvalidConfigError`` naming it; nothing partial
    is returned. ``save_games``: a folder where each game is written, as it ends, as a JSON
    record (:mod:`boardgame_envs.training.records`) named
    ``<agent>-vs-<opponent>-<n>p-<game index>.json``. ``kept``: finished pairings found there
    are read instead of played, and each pairing played is kept there as it ends (agents
    given by spec only), so a tournament that was interrupted plays only what is left, with
    the same tables and ratings. ``duplicate``: every deal in every seating (game g: deal
    ``seed + g // n``, the lone agent at seat ``g % n``; ``games`` a multiple of every table
    size), the intervals over deals.
    """
    check_backend(backend, workers)
    elsewhere = workers > 1 or backend == "ray"
    given = dict(agents or {})
    sources = {name: given.get(name, name) for name in agent_specs}
    objects = [name for name, source in sources.items() if not isinstance(source, str)]
    if elsewhere and objects:
        raise InvalidConfigError(
            f"agent {objects[0]!r} is an object, and games played in worker processes or on "
            "Ray take agents by spec only; give it as a spec string that each worker imports, "
            "e.g. my_agents.py:MyAgent (a file) or my_package.agents:MyAgent (a module), or "
            "play with workers=1"
        )
    if kept is not None and objects:
        raise InvalidConfigError(
            f"agent {objects[0]!r} is an object, and only pairings of agents given by spec "
            "can be kept for a rerun; give it as a spec string"
        )
    rules = make_rules(game)
    if len(set(agent_specs)) < 2:
        raise InvalidConfigError(f"a tournament needs two different agents; got {agent_specs}")
    for n in table_sizes:
        rules.check_num_players(n)
    if duplicate:
        check_duplicate_games(games, table_sizes, "games")
    if lone and lone not in agent_specs:
        raise InvalidConfigError(
            f"lone agent {lone!r} is not one of the agents; allowed: {', '.join(agent_specs)}"
        )

    def instances(name: str, count: int) -> list[Agent]:
        source = sources[name]
        if not isinstance(source, str):
            return [as_agent(source, name)] * count
        return [make_agent(source, game) for _ in range(count)]

    # Built here even when the games are played elsewhere: a bad spec fails before any game.
    lone_agents = {spec: instances(spec, 1)[0] for spec in agent_specs}
    field_agents = {spec: instances(spec, max(table_sizes) - 1) for spec in agent_specs}
    pairings = [
        (a, b, n)
        for n in table_sizes
        for i, a in enumerate(agent_specs)
        for j, b in enumerate(agent_specs)
        if (i < j if n == 2 else i != j) and _includes(lone, a, b, n)
    ]
    saver = GameSaver(save_games, game, sources) if save_games else None
    tournament = Tournament(game, duplicate=duplicate)
    ratings = _Ratings()
    found = {p: kept.load(game, *p, games, seed, duplicate) for p in pairings} if kept else {}
    to_play = [p for p in pairings if found.get(p) is None]
    if elsewhere:
        remote = {name: resolve_agent_spec(source) for name, source in sources.items()}
        tasks = [
            (game, remote[a], remote[b], n, seed, g, duplicate)
            for a, b, n in to_play
            for g in range(games)
        ]
        records: Iterator[GameRecord] = run_tasks(_play_task, tasks, workers, backend, ray_address)
    else:
        records = (
            play_one(rules, lone_agents[a], field_agents[b][: n - 1], seed, g, duplicate)
            for a, b, n in to_play
            for g in range(games)
        )
    bar = tqdm(total=len(to_play) * games, disable=not progress, desc=f"eval {game}", unit="game")
    try:
        for lone, other, n in pairings:
            result = PairingResult(lone, other, n, seatings=n if duplicate else 0)
            started = time.perf_counter()
            earlier = found.get((lone, other, n))
            played = []
            for g in range(games):
                if earlier is not None:
                    record = earlier.records[g]
                else:
                    record = next(records)
                    bar.update()
                    played.append(record)
                result.record(record)
                ratings.update(lone, other, record)
                if saver is not None:
                    saver.save(lone, other, n, deal_and_seat(seed, g, n, duplicate)[0], g, record)
            if earlier is not None:
                result.seconds = earlier.seconds
            else:
                result.seconds = time.perf_counter() - started
                if kept is not None:
                    pairing = Kept(played, result.seconds)
                    kept.save(game, lone, other, n, games, seed, pairing, duplicate)
            tournament.results.append(result)
            if n == 2:
                tournament.results.append(result.mirrored())
    except WorkerError as error:
        kept = f" but the records in {saver.folder}" if saver is not None else ""
        raise InvalidConfigError(
            f"{error}; the tournament stopped and wrote nothing{kept}"
        ) from None
    finally:
        bar.close()
    tournament.ratings = ratings.table()
    return tournament


@dataclass
class Kept:
    """A finished pairing as kept for a rerun: its games, in order, and how long it took."""

    records: list[GameRecord]
    seconds: float


class KeptPairings:
    """Finished pairings of tournaments, kept in ``folder`` (one JSON file each, written
    whole or not at all) so that a tournament rerun after an interruption plays only the
    pairings not finished yet.

    A pairing is read back only under the same key: the game, both agents' specs, the table
    size, the number of games, the seed and ``version``, which must name everything else
    that decides the games (e.g. the code of the engines and agents: see
    ``boardgame_envs.training.evaluation.leaderboard.play_version``)."""

    def __init__(self, folder: str | Path, version: str) -> None:
        self.folder, self.version = Path(folder), version

    def key(
        self, game: str, lone: str, other: str, n: int, games: int, seed: int, duplicate=False
    ) -> dict:
        key = {
            "version": self.version,
            "game": game,
            "agent": lone,
            "opponent": other,
            "num_players": n,
            "games": games,
            "seed": seed,
        }
        return key | ({"duplicate": True} if duplicate else {})

    def path(self, key: dict) -> Path:
        digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()
        return self.folder / f"{key['game']}-{key['num_players']}p-{digest[:16]}.json"

    def load(
        self, game: str, lone: str, other: str, n: int, games: int, seed: int, duplicate=False
    ) -> Kept | None:
        """The pairing kept under this key, or None (none kept, another key, unreadable)."""
        key = self.key(game, lone, other, n, games, seed, duplicate)
        try:
            data = json.loads(self.path(key).read_text())
            if data["key"] != key or len(data["records"]) != games:
                return None
            records = [_record_from_json(row) for row in data["records"]]
            return Kept(records, float(data["seconds"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def save(
        self,
        game: str,
        lone: str,
        other: str,
        n: int,
        games: int,
        seed: int,
        pairing: Kept,
        duplicate: bool = False,
    ) -> Path:
        key = self.key(game, lone, other, n, games, seed, duplicate)
        path = self.path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial")
        rows = [asdict(record) for record in pairing.records]
        partial.write_text(json.dumps({"key": key, "seconds": pairing.seconds, "records": rows}))
        partial.replace(path)
        return path


def _record_from_json(row: dict) -> GameRecord:
    return GameRecord(
        **{name: tuple(value) if isinstance(value, list) else value for name, value in row.items()}
    )


class GameSaver:
    """Writes each game of a tournament as a JSON record (:mod:`boardgame_envs.training.records`)
    into ``folder``: ``<agent>-vs-<opponent>-<n>p-<game index>.json``, the agents' names with
    the characters a file name cannot hold replaced by ``_``."""

    def __init__(self, folder: str | Path, game: str, sources: Mapping[str, Agent | str]) -> None:
        self.folder, self.game = Path(folder), game
        if self.folder.exists() and not self.folder.is_dir():
            raise InvalidConfigError(
                f"--save-games {str(folder)!r} is a file; allowed: a folder (made if missing)"
            )
        self.folder.mkdir(parents=True, exist_ok=True)
        # A record names each seat's agent by its spec where there is one.
        self.labels = {
            name: source if isinstance(source, str) else name for name, source in sources.items()
        }
        self.file_names = _file_names(list(sources))

    def path(self, lone: str, other: str, num_players: int, index: int) -> Path:
        name = f"{self.file_names[lone]}-vs-{self.file_names[other]}-{num_players}p-{index}"
        return self.folder / f"{name}.json"

    def save(
        self, lone: str, other: str, num_players: int, deal: int, index: int, game: GameRecord
    ) -> Path:
        from boardgame_envs.training.records.game_records import make_record, save_record

        seats = [self.labels[other]] * num_players
        seats[game.seat] = self.labels[lone]
        record = make_record(
            self.game,
            num_players,
            deal,
            seats,
            list(game.actions),
            list(game.scores),
            list(game.winners),
        )
        return save_record(record, self.path(lone, other, num_players, index))


def _file_names(names: Sequence[str]) -> dict[str, str]:
    """Each agent name as a distinct piece of a file name: letters, digits, ``.``, ``_``
    and ``-`` kept, any other run of characters made ``_`` (``my_agents.py:FirstLegal`` ->
    ``my_agents.py_FirstLegal``); a clash gets ``_2``, ``_3``..."""
    found: dict[str, str] = {}
    for name in names:
        base = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "agent"
        label, k = base, 1
        while label in found.values():
            k += 1
            label = f"{base}_{k}"
        found[name] = label
    return found


def evaluate(
    game: str,
    agents: Mapping[str, Agent | str] | Sequence[str] | str,
    *,
    games: int = 100,
    num_players: int | Sequence[int] = 2,
    seed: int = 0,
    workers: int = 1,
    backend: str = "local",
    ray_address: str = "",
    save_games: str | Path | None = None,
    progress: bool = False,
    duplicate: bool = False,
) -> Tournament:
    """Benchmark agents against each other: the tournament of ``boardgame-envs eval``.

    ``agents`` is a dict of name -> agent spec or agent object (the names label the tables),
    or a list of specs (each its own name), or one comma-separated string of them. A spec is
    any agent the command line takes: ``random``, ``heuristic``, ``ismcts[:options]``,
    ``ppo:<model>``, ``net:<network>``, ``ismcts-net:<network>``, or your own,
    ``module.path:attr`` or ``path/to/file.py:attr``. An object is an ``Agent`` or anything
    with an ``act(view) -> int`` method; objects play in this process only (``workers=1``,
    ``backend="local"``); specs work everywhere, as each worker builds its own agents from
    them.

    Every pairing is ``games`` games of the lone agent against copies of the other in every
    other seat, at each size of ``num_players`` (an int or a list), seats rotated, game g
    dealt from ``seed + g``. Returns the :class:`Tournament`: its ``results``
    (:class:`PairingResult`: wins, draws, losses, win share, its 95% interval, mean score)
    and its openskill ``ratings``, the same as the command line's for the same arguments.
    ``save_games``: a folder for one JSON record per game (``boardgame-envs replay`` shows
    them). ``backend="ray"`` plays the games as Ray tasks, on a local instance of ``workers``
    CPUs or on the cluster at ``ray_address``. ``duplicate=True`` plays every deal in every
    seating (``games`` a multiple of every table size) and computes the intervals over deals.

    >>> from boardgame_envs.training.evaluation import evaluate, markdown_table
    >>> tournament = evaluate(
    ...     "factors_multiples",
    ...     {"mine": "my_agents.py:FirstLegal", "heuristic": "heuristic"},
    ...     games=200,
    ...     workers=2,
    ... )  # doctest: +SKIP
    >>> tournament.result("mine", "heuristic").win_share  # doctest: +SKIP
    0.215
    >>> print(markdown_table(tournament))  # doctest: +SKIP
    """
    names, sources = _named_agents(agents)
    sizes = [num_players] if is_integer(num_players) else list(num_players)
    for label, value in (("games", games), ("seed", seed)):
        low = 1 if label == "games" else 0
        if not is_integer(value) or value < low:
            raise InvalidConfigError(
                f"{label}={value!r} is not allowed; allowed: an integer >= {low}"
            )
    if not sizes or not all(is_integer(n) for n in sizes):
        raise InvalidConfigError(
            f"num_players={num_players!r} is not allowed; allowed: an integer or a list of them"
        )
    return run_tournament(
        game,
        names,
        sizes,
        games,
        seed,
        progress,
        agents=sources,
        workers=workers,
        backend=backend,
        ray_address=ray_address,
        save_games=save_games,
        duplicate=duplicate,
    )


def _named_agents(
    agents: Mapping[str, Agent | str] | Sequence[str] | str,
) -> tuple[list[str], dict[str, Agent | str]]:
    """(names in order, name -> spec or object) from what :func:`evaluate` accepts."""
    if isinstance(agents, str):
        agents = split_agent_specs(agents)
    if isinstance(agents, Mapping):
        for name, value in agents.items():
            if not isinstance(name, str) or not (
                isinstance(value, (str, Agent)) or callable(getattr(value, "act", None))
            ):
                raise InvalidConfigError(
                    f"agents[{name!r}] = {value!r} is not allowed; allowed: a name mapped to "
                    "an agent spec (e.g. 'heuristic', 'my_agents.py:MyAgent') or an agent "
                    "object with an act(view) method"
                )
        return list(agents), dict(agents)
    names = list(agents)
    if not all(isinstance(name, str) for name in names):
        raise InvalidConfigError(
            f"agents={names!r} is not allowed; allowed: a list of agent specs, or a dict of "
            "name -> spec or agent object (objects need a name)"
        )
    return names, {}


def _includes(lone: str, a: str, b: str, n: int) -> bool:
    """Whether pairing (``a`` alone, against ``b``) is played when only ``lone``'s are
    wanted; with two players (A, B) stands for (B, A) too."""
    if not lone:
        return True
    return lone in (a, b) if n == 2 else a == lone


def format_seconds(seconds: float) -> str:
    """A duration for people, in the unit that keeps it short, with 2 or 3 significant
    digits: ``0.5 µs``, ``12 µs``, ``400 µs``, ``4.0 ms``, ``25 ms``, ``1.3 s``, ``95 s``
    (``markdown_table``'s s/decision column; the CSV and JSON keep the raw seconds)."""
    if seconds <= 0:
        return "0 s"
    for unit, scale in (("µs", 1e-6), ("ms", 1e-3), ("s", 1.0)):
        value = seconds / scale
        shown = f"{value:.1f}" if value < 9.95 else f"{value:.0f}"
        if float(shown) < 1000 or unit == "s":
            return f"{shown} {unit}"
    raise AssertionError("unreachable")


def markdown_table(tournament: Tournament) -> str:
    if tournament.duplicate:
        title = (
            f"### {tournament.game}: the lone agent against the field, duplicate deals (each "
            "deal in every seating; 95% CI: Student's t over deals)"
        )
    else:
        title = f"### {tournament.game}: the lone agent against the field, seats rotated"
    lines = [
        title,
        "",
        "| players | agent | opponent | games | W | D | L | win share | 95% CI | mean score "
        "| s/decision |",
        "|---:|---|---|---:|---:|---:|---:|---:|---|---:|---:|",
    ]
    for r in tournament.results:
        low, high = r.ci95
        score = f"{r.mean_score:.2f}"
        thinking = format_seconds(r.seconds_per_decision) if r.decisions else "–"
        games = f"{r.games} ({r.deals} deals)" if r.seatings else str(r.games)
        lines.append(
            f"| {r.num_players} | {r.agent} | {r.opponent} | {games} | {r.wins} | {r.draws} "
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
                "duplicate": tournament.duplicate,
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
        args.game,
        specs,
        sizes,
        args.games,
        args.seed,
        args.progress,
        workers=args.workers,
        backend=args.backend,
        ray_address=args.ray_address,
        lone=args.lone,
        save_games=args.save_games or None,
        duplicate=args.duplicate,
    )
    print(markdown_table(tournament))
    if args.out:
        for path in write_outputs(tournament, Path(args.out)):
            print(f"wrote {path}")
    return tournament


if __name__ == "__main__":
    main(parse_args(Args))
