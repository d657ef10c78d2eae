"""The benchmark: a score card for any agent against a fixed, versioned reference pool.

The agent plays every game at 2 players and at the game's largest table, alone against each
reference agent of the pool in every other seat, on duplicate deals (every deal in every
seating) from the benchmark version's published seed set. The card (card.md and card.json)
gives, per game and table, the win share against each reference with its 95% interval over
deals, the mean score margin, the seconds per decision, and a rating on a fixed scale:
OpenSkill (Plackett-Luce) with the references' ratings frozen at their published values, so
only the benchmarked agent's rating moves and two cards' ratings compare.

    boardgame-envs benchmark heuristic --workers 2
    boardgame-envs benchmark my_agents.py:MyAgent --games 400 --save-games my_card
    boardgame-envs benchmark --verify my_card
    boardgame-envs benchmark --version

Everything on the card but the seconds per decision is the same on every machine: the
references have no clock (the search runs a fixed number of iterations), every game's deal
and every agent's generator come from the seed set, and the ratings are fitted in a fixed
order (game g against every reference before game g + 1). With --save-games every game is
kept as a record (deal seed, agents, actions, scores) beside a copy of the card; --verify
replays those records on the engines, recomputes the card from them and reports every
record, score or card entry that differs.

The pool, the seed set, the frozen ratings and the default game counts are the benchmark's
definition, data in benchmark_v3.json beside this module: a change to any of them, to the
engines or to the reference agents makes a new BENCHMARK_VERSION. They are published in
docs/reporting-results.md and are never used to tune anything.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from boardgame_envs.agents.specs import make_agent, resolve_agent_spec
from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.registry import make_rules
from boardgame_envs.training.cli_args import (
    at_least,
    check_fields,
    check_output_folder,
    one_of,
    parse_args,
)
from boardgame_envs.training.evaluation.duplicate import (
    check_duplicate_games,
    deal_and_seat,
    deal_interval,
)
from boardgame_envs.training.evaluation.tournament import (
    GameRecord,
    _file_names,
    _play_task,
    format_seconds,
    play_one,
)
from boardgame_envs.training.parallel import BACKENDS, WorkerError, check_backend, run_tasks

#: The benchmark's definition, as published: its version, the seed set, the default game
#: counts and the reference pool with the references' frozen ratings (data, one file a
#: version).
DEFINITION = json.loads((Path(__file__).parent / "benchmark_v3.json").read_text())
#: The benchmark's version: any change to the pool, the seed set, the frozen ratings, the
#: default game counts, the engines or the reference agents makes a new one.
BENCHMARK_VERSION: str = DEFINITION["benchmark_version"]
#: The published seed set: deal d of every game and table is dealt from SEED + d.
SEED: int = DEFINITION["seed"]
#: Default games against each reference: at 2 players (100 deals, both seatings) and at the
#: largest table (each deal in every seating: 25 deals at 4 players, 20 at 5).
GAMES: int = DEFINITION["games"]
LARGE_TABLE_GAMES: int = DEFINITION["large_table_games"]
#: The reference pool, by game and table size: each reference's frozen OpenSkill (μ, σ),
#: from the leaderboard the definition names. A PPO policy or network is in a table only
#: where one is shipped for its size.
POOL: dict[tuple[str, int], dict[str, tuple[float, float]]] = {
    (table["game"], table["num_players"]): {
        spec: (rating[0], rating[1]) for spec, rating in table["references"].items()
    }
    for table in DEFINITION["tables"]
}
#: The SHA-256 of each reference policy's or network's shipped file: another file under
#: the same name is another reference, and makes another version (see
#: :func:`check_reference_models`).
REFERENCE_MODELS: dict[str, str] = DEFINITION["reference_models"]


def _left_out(game: str, n: int, refs: Iterable[str]) -> list[str]:
    """What a larger table's pool leaves out, and why: the 2-player policy or network where
    none is shipped for its size."""
    missing = [kind for kind in ("ppo", "net") if not any(s.startswith(f"{kind}:") for s in refs)]
    if not missing:
        return []
    things = {("ppo",): "policy", ("net",): "network", ("ppo", "net"): "policy or network"}
    names = " and ".join(f"{kind}:{game}" for kind in missing)
    return [f"{names} (no {things[tuple(missing)]} shipped for {n} players)"]


#: What each larger table leaves out, and why (said on the card).
LEFT_OUT = {(game, n): _left_out(game, n, refs) for (game, n), refs in POOL.items() if n > 2}

CARD_FORMAT = "boardgame-envs-card/1"
CARD_JSON, CARD_MD = "card.json", "card.md"
#: The card's machine-dependent entries (left out when two cards are compared).
TIMING_KEYS = ("seconds_per_decision",)


@dataclass
class Args:
    POSITIONAL: ClassVar[tuple[str, ...]] = ("agent",)

    agent: str = ""
    """the agent to benchmark, first after the command: random, heuristic, ismcts[:options],
    ppo:<model>, net:<network>, ismcts-net:<network>, or your own, module.path:attr or
    path/to/file.py:attr; {game} in it stands for each game's id (ppo:{game}: each game's
    shipped policy) ("" = none: only with --verify or --version)"""
    games: int = GAMES
    """games against each reference at 2 players (an even number: each deal is played in
    both seatings)"""
    large_table_games: int = LARGE_TABLE_GAMES
    """games against each reference at each game's largest table (a multiple of every
    largest table size, 4 and 5: each deal is played in every seating)"""
    workers: int = 1
    """processes (or Ray tasks at a time) that play games in parallel; the card is the same
    for any number"""
    backend: str = "local"
    """where games are played: local (this machine's processes) or ray (Ray tasks; needs the
    [ray] extra)"""
    ray_address: str = ""
    """with --backend ray: a running cluster to join, host:port, ray://host:port or auto
    ("" = start a local Ray instance with --workers CPUs)"""
    out: str = "benchmark"
    """folder for card.md and card.json"""
    save_games: str = ""
    """folder to keep every game in as a record, with a copy of the card, so that anyone can
    check it with --verify: a new or empty folder ("" = keep none)"""
    verify: str = ""
    """a folder written by --save-games: replay its records on the engines, recompute the
    card and say whether it matches ("" = benchmark the agent)"""
    version: bool = False
    """print the benchmark's version and stop"""
    progress: bool = True
    """show a progress bar"""

    def __post_init__(self) -> None:
        if self.version:
            return
        check_fields(
            self,
            {
                "games": at_least(2),
                "large_table_games": at_least(1),
                "workers": at_least(1),
                "backend": one_of(*BACKENDS),
            },
        )
        check_backend(self.backend, self.workers)
        if self.verify:
            if self.agent:
                raise InvalidConfigError(
                    "--verify checks a saved card and plays nothing: give it without an agent"
                )
            read_card_folder(self.verify)
            return
        if not self.agent:
            raise InvalidConfigError(
                "the agent to benchmark is required, first after the command (e.g. "
                "boardgame-envs benchmark heuristic); or --verify DIR, or --version"
            )
        check_duplicate_games(self.games, [2])
        largest = sorted({n for (_, n) in POOL if n > 2})
        check_duplicate_games(self.large_table_games, largest, "--large-table-games")
        check_output_folder("--out", self.out)
        if self.save_games:
            check_output_folder("--save-games", self.save_games)
            if any(Path(self.save_games).glob("*.json")):
                raise InvalidConfigError(
                    f"--save-games {self.save_games} already holds JSON files (records or a "
                    "card); give a new or empty folder, so that --verify finds only this "
                    "card's games"
                )


# -- the plan: which games are played ----------------------------------------------------
@dataclass(frozen=True)
class Table:
    """One game at one table size: the references and the games against each."""

    game: str
    num_players: int
    references: tuple[str, ...]
    games: int

    @property
    def deals(self) -> int:
        return self.games // self.num_players


def benchmark_tables(
    games: int = GAMES,
    large_table_games: int = LARGE_TABLE_GAMES,
    keep: Callable[[str, int, str], bool] | None = None,
) -> list[Table]:
    """The benchmark's tables in order; ``keep(game, n, reference)`` plays a part of the pool
    only (tests; the card then says it is not the whole benchmark)."""
    tables = []
    for (game, n), refs in POOL.items():
        chosen = tuple(r for r in refs if keep is None or keep(game, n, r))
        if chosen:
            tables.append(Table(game, n, chosen, games if n == 2 else large_table_games))
    return tables


# -- playing --------------------------------------------------------------------------------
@dataclass
class Entry:
    """The agent against one reference at one table: what the card says of it."""

    reference: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: list[float] = field(default_factory=list)  # the agent's win share per game
    margins: list[float] = field(default_factory=list)  # its score over the others' mean
    decisions: int = 0
    decision_seconds: float = 0.0

    def add(self, seat: int, keys: Sequence[float], winners: Sequence[int]) -> None:
        self.games += 1
        share = 1 / len(winners) if seat in winners else 0.0
        self.points.append(share)
        if seat not in winners:
            self.losses += 1
        elif len(winners) == 1:
            self.wins += 1
        else:
            self.draws += 1
        others = [k for s, k in enumerate(keys) if s != seat]
        self.margins.append(keys[seat] - sum(others) / len(others))

    def as_json(self, num_players: int) -> dict[str, Any]:
        if not self.games or self.games % num_players:  # a game missing (--verify says so)
            return {"reference": self.reference, "games": self.games}
        low, high = deal_interval(self.points, num_players)
        return {
            "reference": self.reference,
            "games": self.games,
            "deals": self.games // num_players,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_share": round(sum(self.points) / self.games, 4),
            "ci95": [round(low, 4), round(high, 4)],
            "mean_score_margin": round(sum(self.margins) / self.games, 3) + 0.0,
            "seconds_per_decision": _timing(self.decision_seconds, self.decisions),
        }


class FrozenRating:
    """The agent's OpenSkill (Plackett-Luce) rating fitted game by game against references
    whose ratings stay at their published values."""

    def __init__(self) -> None:
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()
        self.rating = self.model.rating(name="agent")

    def update(self, seat: int, keys: Sequence[float], reference: tuple[float, float]) -> None:
        mu, sigma = reference
        for other in range(len(keys)):
            if other == seat:
                continue
            frozen = self.model.rating(mu=mu, sigma=sigma, name="reference")
            ranks = [-keys[seat], -keys[other]]  # rank 1 is best; equal ranks tie
            [[self.rating], _] = self.model.rate([[self.rating], [frozen]], ranks=ranks)

    def as_json(self) -> dict[str, float]:
        mu, sigma = self.rating.mu, self.rating.sigma
        return {
            "mu": round(mu, 2),
            "sigma": round(sigma, 2),
            "mu_minus_3_sigma": round(mu - 3 * sigma, 2),
        }


@dataclass(frozen=True)
class Played:
    """One benchmark game: where it belongs, and what the card reads of it."""

    table: Table
    reference: str
    index: int
    record: GameRecord


def play_tables(
    agent: str,
    tables: Sequence[Table],
    workers: int = 1,
    backend: str = "local",
    ray_address: str = "",
    progress: bool = True,
) -> Iterator[Played]:
    """Every game of ``tables``, in order: the agent alone at seat g % n of deal
    SEED + g // n against the reference in every other seat."""
    from tqdm.auto import tqdm

    order = [(t, ref, g) for t in tables for ref in t.references for g in range(t.games)]
    if workers > 1 or backend == "ray":
        tasks = [
            (
                t.game,
                resolve_agent_spec(agent_for(agent, t.game)),
                resolve_agent_spec(ref),
                t.num_players,
                SEED,
                g,
                True,
            )
            for t, ref, g in order
        ]
        records: Iterator[GameRecord] = run_tasks(_play_task, tasks, workers, backend, ray_address)
    else:
        records = _play_here(agent, order)
    bar = tqdm(total=len(order), disable=not progress, desc="benchmark", unit="game")
    try:
        for (t, ref, g), record in zip(order, records):
            bar.update()
            yield Played(t, ref, g, record)
    finally:
        bar.close()


def _play_here(agent: str, order: list[tuple[Table, str, int]]) -> Iterator[GameRecord]:
    built: dict[tuple[str, str, int], Any] = {}

    def instance(game: str, spec: str, index: int):
        if (game, spec, index) not in built:
            built[game, spec, index] = make_agent(spec, game)
        return built[game, spec, index]

    for t, ref, g in order:
        rules = make_rules(t.game)
        lone = instance(t.game, agent_for(agent, t.game), 0)
        others = [instance(t.game, ref, i + 1) for i in range(t.num_players - 1)]
        yield play_one(rules, lone, others, SEED, g, duplicate=True)


def agent_for(agent: str, game: str) -> str:
    """The agent's spec in ``game``: ``{game}`` in it replaced by the game's id (``ppo:{game}``
    is each game's shipped policy)."""
    return agent.replace("{game}", game)


def check_agent(agent: str, tables: Sequence[Table]) -> None:
    """Build the agent and every reference once for each game, and let the agent make the
    first decision of every table, so that a bad spec, a missing shipped model or an agent
    that cannot play a table's size (a network made for 2 players) fails before the first
    game."""
    for t in tables:
        spec = agent_for(agent, t.game)
        state = make_rules(t.game).new_state(t.num_players, seed=SEED)
        try:
            make_agent(spec, t.game, seed=SEED).act(state.view(state.current_player))
        except InvalidConfigError:
            raise
        except Exception as error:
            raise InvalidConfigError(
                f"agent {spec!r} failed its first decision at {t.game}, {t.num_players} "
                f"players ({type(error).__name__}: {error}); allowed: an agent that plays "
                "every table of the benchmark"
            ) from None
        for ref in t.references:
            make_agent(ref, t.game)


# -- the card --------------------------------------------------------------------------------
def versions() -> dict[str, Any]:
    """The library's version and every env's (what the card records besides the benchmark's)."""
    import boardgame_envs
    from boardgame_envs.registry import GAMES as REGISTERED

    return {
        "library": boardgame_envs.__version__,
        "envs": {game: f"v{info.rules('python').version}" for game, info in REGISTERED.items()},
    }


def build_card(agent: str, tables: Sequence[Table], games: Sequence[Played]) -> dict[str, Any]:
    """The card's content (card.json) from the games played, in their order."""
    entries = {(t.game, t.num_players, ref): Entry(ref) for t in tables for ref in t.references}
    ratings = {(t.game, t.num_players): FrozenRating() for t in tables}
    for played in games:
        t, record = played.table, played.record
        entry = entries[t.game, t.num_players, played.reference]
        entry.add(record.seat, record.keys, record.winners)
        entry.decisions += record.decisions
        entry.decision_seconds += record.decision_seconds
    # The rating is fitted game by game, game g against every reference before game g + 1,
    # so that no reference's games come last (the last games move a rating least).
    found = {(p.table.game, p.table.num_players, p.reference, p.index): p for p in games}
    for t in tables:
        for g in range(t.games):
            for ref in t.references:
                played = found.get((t.game, t.num_players, ref, g))
                if played is not None:
                    record, reference = played.record, POOL[t.game, t.num_players][ref]
                    ratings[t.game, t.num_players].update(record.seat, record.keys, reference)
    full = benchmark_tables(tables[0].games if tables else GAMES, _large(tables))
    rows = []
    for t in tables:
        table_entries = [entries[t.game, t.num_players, ref] for ref in t.references]
        decisions = sum(e.decisions for e in table_entries)
        seconds = sum(e.decision_seconds for e in table_entries)
        rows.append(
            {
                "game": t.game,
                "num_players": t.num_players,
                "games_per_reference": t.games,
                "deals": t.deals,
                "left_out": LEFT_OUT.get((t.game, t.num_players), []),
                "references": [e.as_json(t.num_players) for e in table_entries],
                "rating": ratings[t.game, t.num_players].as_json(),
                "seconds_per_decision": _timing(seconds, decisions),
            }
        )
    return {
        "format": CARD_FORMAT,
        "benchmark_version": BENCHMARK_VERSION,
        **versions(),
        "agent": agent,
        "seed": SEED,
        "games": tables[0].games if tables else GAMES,
        "large_table_games": _large(tables),
        "whole_benchmark": [(t.game, t.num_players, t.references) for t in tables]
        == [(t.game, t.num_players, t.references) for t in full],
        "tables": rows,
    }


def _timing(seconds: float, decisions: int) -> float | None:
    """Seconds per decision, to 3 significant digits (None: no decision with a choice)."""
    return float(f"{seconds / decisions:.3g}") if decisions else None


def _large(tables: Sequence[Table]) -> int:
    return next((t.games for t in tables if t.num_players > 2), LARGE_TABLE_GAMES)


def card_tables(card: dict[str, Any]) -> list[Table]:
    """The tables a card was made from."""
    return [
        Table(
            row["game"],
            row["num_players"],
            tuple(r["reference"] for r in row["references"]),
            row["games_per_reference"],
        )
        for row in card["tables"]
    ]


def card_markdown(card: dict[str, Any]) -> str:
    """card.md: the card for people."""
    envs = ", ".join(f"{game} {version}" for game, version in card["envs"].items())
    scope = (
        "the whole reference pool"
        if card["whole_benchmark"]
        else "PART of the reference pool only (not a benchmark result)"
    )
    lines = [
        f"# Benchmark card: `{card['agent']}`",
        "",
        f"Benchmark version {card['benchmark_version']} ({scope}); boardgame-envs "
        f"{card['library']}; envs: {envs}.",
        "",
        f"Duplicate deals from the published seed set: deal d is dealt from seed "
        f"{card['seed']:,} + d and played in every seating (the agent alone in each seat in "
        f"turn, the reference in every other seat); {card['games']} games against each "
        f"reference at 2 players, {card['large_table_games']} at the largest table. Win "
        "share: a shared win counts 1/k. 95% interval: Student's t over deals (each deal's "
        "mean over its seatings). Score margin: the agent's score minus the mean of the "
        "others', signed so that positive is better. Rating: OpenSkill (Plackett-Luce) with "
        "the references' ratings frozen at their published values, so it reads on the "
        "leaderboard's scale. Seconds per decision depend on the machine; nothing else does.",
        "",
    ]
    for row in card["tables"]:
        rating = row["rating"]
        lines += [
            f"## {row['game']}, {row['num_players']} players",
            "",
            f"Rating μ {rating['mu']:.2f}, σ {rating['sigma']:.2f}, μ − 3σ "
            f"{rating['mu_minus_3_sigma']:.2f}; {_count(row['deals'], 'deal')}, "
            f"{row['games_per_reference']} games against each reference; "
            f"{_seconds(row['seconds_per_decision'])} a decision.",
            "",
        ]
        for note in row["left_out"]:
            lines += [f"Left out: {note}.", ""]
        lines += [
            "| reference | games | W | D | L | win share | 95% CI (over deals) "
            "| score margin | s/decision |",
            "|---|---:|---:|---:|---:|---:|---|---:|---:|",
        ]
        for r in row["references"]:
            low, high = r["ci95"]
            lines.append(
                f"| {r['reference']} | {r['games']} | {r['wins']} | {r['draws']} "
                f"| {r['losses']} | {r['win_share']:.3f} | [{low:.3f}, {high:.3f}] "
                f"| {r['mean_score_margin']:+.2f} | {_seconds(r['seconds_per_decision'])} |"
            )
        lines.append("")
    return "\n".join(lines)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _seconds(value: float | None) -> str:
    return "–" if value is None else format_seconds(value)


def write_card(card: dict[str, Any], folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / CARD_JSON, folder / CARD_MD]
    paths[0].write_text(json.dumps(card, indent=1) + "\n")
    paths[1].write_text(card_markdown(card))
    return paths


# -- records --------------------------------------------------------------------------------
def record_name(t: Table, reference: str, index: int) -> str:
    """The file a game is kept in: ``<game>-<n>p-<reference>-<index>.json``."""
    label = _file_names([reference])[reference]
    return f"{t.game}-{t.num_players}p-{label}-{index}.json"


def save_game(folder: Path, agent: str, played: Played) -> Path:
    from boardgame_envs.training.records.game_records import make_record, save_record

    t, record = played.table, played.record
    deal, seat = deal_and_seat(SEED, played.index, t.num_players, True)
    seats = [played.reference] * t.num_players
    seats[seat] = agent_for(agent, t.game)
    saved = make_record(
        t.game,
        t.num_players,
        deal,
        seats,
        list(record.actions),
        list(record.scores),
        list(record.winners),
    )
    saved["benchmark"] = BENCHMARK_VERSION
    return save_record(saved, folder / record_name(t, played.reference, played.index))


# -- running ---------------------------------------------------------------------------------
def run_benchmark(
    agent: str,
    games: int = GAMES,
    large_table_games: int = LARGE_TABLE_GAMES,
    workers: int = 1,
    backend: str = "local",
    ray_address: str = "",
    save_games: str | Path | None = None,
    progress: bool = True,
    keep: Callable[[str, int, str], bool] | None = None,
) -> dict[str, Any]:
    """Play the benchmark for ``agent`` (a spec) and return its card (card.json's content);
    ``save_games``: a folder for one record per game. ``keep`` plays part of the pool only
    (see :func:`benchmark_tables`)."""
    tables = benchmark_tables(games, large_table_games, keep)
    check_reference_models()
    check_agent(agent, tables)
    folder = Path(save_games) if save_games else None
    played = []
    try:
        for one in play_tables(agent, tables, workers, backend, ray_address, progress):
            played.append(one)
            if folder is not None:
                save_game(folder, agent, one)
    except WorkerError as error:
        raise InvalidConfigError(f"{error}; the benchmark stopped and wrote no card") from None
    return build_card(agent, tables, played)


def check_reference_models() -> None:
    """``InvalidConfigError`` unless every reference policy and network of the pool is the
    shipped file the benchmark's version was defined with (a card played against another
    would not compare with the published ones)."""
    import hashlib

    from boardgame_envs.agents.policy_value import shipped_nets
    from boardgame_envs.agents.ppo import shipped_models

    shipped = {"ppo": shipped_models(), "net": shipped_nets()}
    for spec, digest in REFERENCE_MODELS.items():
        kind, _, name = spec.partition(":")
        path = shipped[kind].get(name)
        if path is None or hashlib.sha256(path.read_bytes()).hexdigest() != digest:
            found = "is missing" if path is None else f"is another file ({path.name} differs)"
            raise InvalidConfigError(
                f"the reference {spec} of benchmark {BENCHMARK_VERSION} {found}, so a card "
                "would not compare with the published ones; allowed: the package's own "
                "models (reinstall it), or a new benchmark version for new references"
            )


# -- verifying -------------------------------------------------------------------------------
def read_card_folder(folder: str | Path) -> dict[str, Any]:
    """The card saved in ``folder``, checked to be one of this benchmark version's;
    ``InvalidConfigError`` (one line) otherwise."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InvalidConfigError(f"--verify {folder}: not a folder (give the --save-games folder)")
    path = folder / CARD_JSON
    if not path.is_file():
        raise InvalidConfigError(
            f"--verify {folder}: not a benchmark card folder (no {CARD_JSON}; give the folder "
            "that benchmark --save-games wrote)"
        )
    try:
        card = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InvalidConfigError(
            f"--verify {folder}: {CARD_JSON} cannot be read ({error})"
        ) from None
    if not isinstance(card, dict) or card.get("format") != CARD_FORMAT:
        raise InvalidConfigError(
            f"--verify {folder}: {CARD_JSON} is not a benchmark card (format "
            f"{card.get('format') if isinstance(card, dict) else None!r}; expected {CARD_FORMAT!r})"
        )
    if card.get("benchmark_version") != BENCHMARK_VERSION:
        raise InvalidConfigError(
            f"--verify {folder}: the card is from benchmark version "
            f"{card.get('benchmark_version')!r}, and this is version {BENCHMARK_VERSION}; verify "
            "it with the library that made it"
        )
    try:
        tables = card_tables(card)
        for t in tables:
            if (t.game, t.num_players) not in POOL or not set(t.references) <= set(
                POOL[t.game, t.num_players]
            ):
                raise ValueError(f"{t.game} at {t.num_players} players is not in the benchmark")
            if t.games < 1 or t.games % t.num_players:
                raise ValueError(f"{t.games} games at {t.num_players} players")
        if not isinstance(card["agent"], str) or not card["agent"]:
            raise ValueError("no agent")
    except (KeyError, TypeError, ValueError) as error:
        raise InvalidConfigError(
            f"--verify {folder}: {CARD_JSON} is not a whole benchmark card ({error})"
        ) from None
    return card


def verify(folder: str | Path) -> list[str]:
    """Replay the records in ``folder`` on the engines, recompute the card and compare it
    with the saved one: the list of problems found (empty: the card checks out), each naming
    the record, score or card entry that differs. ``InvalidConfigError`` for a folder that
    is not a card's, or records from another benchmark version."""
    from boardgame_envs.training.records.game_records import InvalidRecordError, load_record

    folder = Path(folder)
    card = read_card_folder(folder)
    agent, tables = card["agent"], card_tables(card)
    problems: list[str] = []
    played: list[Played] = []
    incomplete: set[tuple[str, int, str]] = set()  # entries with a game that cannot be read
    expected_files = set()
    for t in tables:
        for ref in t.references:
            for g in range(t.games):
                name = record_name(t, ref, g)
                expected_files.add(name)
                try:
                    record = load_record(folder / name)
                except InvalidRecordError as error:
                    problems.append(str(error))
                    incomplete.add((t.game, t.num_players, ref))
                    continue
                if record.get("benchmark") != BENCHMARK_VERSION:
                    raise InvalidConfigError(
                        f"--verify {folder}: record {name} is from benchmark version "
                        f"{record.get('benchmark')!r}, and this is version {BENCHMARK_VERSION}"
                    )
                game = _replay(record, t, ref, g, agent, f"record {name}", problems)
                if game is None:
                    incomplete.add((t.game, t.num_players, ref))
                else:
                    played.append(Played(t, ref, g, game))
    extra = sorted(
        p.name
        for p in folder.glob("*.json")
        if p.name not in expected_files and p.name != CARD_JSON
    )
    problems += [f"record {name}: not a game of this card" for name in extra]
    problems += compare_cards(card, build_card(agent, tables, played), incomplete)
    md = folder / CARD_MD
    if not md.is_file():
        problems.append(f"{CARD_MD}: missing")
    elif md.read_text() != card_markdown(card):
        where = _first_difference(md.read_text(), card_markdown(card))
        problems.append(f"{CARD_MD}: does not say what {CARD_JSON} says ({where})")
    return problems


def _replay(
    record: dict[str, Any], t: Table, ref: str, g: int, agent: str, where: str, problems: list
) -> GameRecord | None:
    """Game ``g`` against ``ref`` as the engines play the record's actions (its outcome
    taken from the engines, a record's own scores that differ reported), or None (and the
    problem) where the record is not that game or does not replay."""
    from boardgame_envs.core.rules import IllegalActionError

    deal, seat = deal_and_seat(SEED, g, t.num_players, True)
    seats = [ref] * t.num_players
    seats[seat] = agent_for(agent, t.game)
    wanted = {"game": t.game, "num_players": t.num_players, "seed": deal, "options": {}}
    wanted["agents"] = seats
    wrong = [key for key, value in wanted.items() if record[key] != value]
    if wrong:
        said = "; ".join(f"{k} is {record[k]!r}, expected {wanted[k]!r}" for k in wrong)
        problems.append(f"{where}: {said}")
        return None
    state = make_rules(t.game).new_state(t.num_players, seed=deal)
    actions = record["actions"]
    for step, action in enumerate(actions):
        if state.is_terminal():
            problems.append(f"{where}: the game is over after {step} of its {len(actions)} actions")
            return None
        try:
            state.apply(action)
        except IllegalActionError as error:
            problems.append(f"{where}: actions[{step}] = {action} is not legal: {error}")
            return None
    if not state.is_terminal():
        problems.append(f"{where}: the game is not over after its {len(actions)} actions")
        return None
    scores = [float(x) for x in state.scores()]
    winners = sorted(int(w) for w in state.winners())
    if scores != [float(x) for x in record["scores"]] or winners != sorted(record["winners"]):
        problems.append(
            f"{where}: the engines give scores {_plain(scores)} and winners {winners}, the "
            f"record says scores {record['scores']} and winners {record['winners']}"
        )
    keys = tuple(state._score_keys())
    return GameRecord(seat, tuple(scores), tuple(winners), keys, 0, 0.0)


def _plain(values: Sequence[float]) -> list:
    return [int(v) if float(v).is_integer() else v for v in values]


def compare_cards(
    saved: dict[str, Any],
    recomputed: dict[str, Any],
    incomplete: set[tuple[str, int, str]] = frozenset(),
) -> list[str]:
    """Every entry of the saved card that the games do not give (timings aside; entries
    and ratings that rest on a game that could not be replayed are not compared)."""
    problems = []
    for key in ("benchmark_version", "agent", "seed", "whole_benchmark"):
        if saved.get(key) != recomputed.get(key):
            problems.append(f"card {key}: {saved.get(key)!r}, the games give {recomputed[key]!r}")
    for row, again in zip(saved["tables"], recomputed["tables"]):
        where = f"card {row['game']} {row['num_players']}p"
        broken = {
            ref for game, n, ref in incomplete if (game, n) == (again["game"], again["num_players"])
        }
        for key in ("games_per_reference", "deals", "left_out", "rating"):
            if key == "rating" and broken:
                continue
            if row.get(key) != again[key]:
                problems.append(f"{where} {key}: {row.get(key)!r}, the games give {again[key]!r}")
        for entry, fresh in zip(row["references"], again["references"]):
            if fresh["reference"] in broken:
                continue
            for key, value in fresh.items():
                if key in TIMING_KEYS:
                    continue
                if entry.get(key) != value:
                    problems.append(
                        f"{where} vs {fresh['reference']} {key}: {entry.get(key)!r}, the games "
                        f"give {value!r}"
                    )
    return problems


def _first_difference(text: str, expected: str) -> str:
    for number, (a, b) in enumerate(zip(text.splitlines(), expected.splitlines()), 1):
        if a != b:
            return f"line {number}: {a!r}, expected {b!r}"
    return "its length differs"


def main(args: Args) -> dict[str, Any] | None:
    if args.version:
        print(f"benchmark version {BENCHMARK_VERSION}")
        return None
    if args.verify:
        problems = verify(args.verify)
        if problems:
            for problem in problems:
                print(problem)
            print(f"{args.verify}: the card does NOT check out ({len(problems)} problems)")
            raise SystemExit(1)
        card = read_card_folder(args.verify)
        count = sum(len(t.references) * t.games for t in card_tables(card))
        print(
            f"{args.verify}: the card checks out: {count} records replay on the engines and "
            f"give every entry of the card (benchmark version {BENCHMARK_VERSION})"
        )
        return card
    card = run_benchmark(
        args.agent,
        args.games,
        args.large_table_games,
        args.workers,
        args.backend,
        args.ray_address,
        args.save_games or None,
        args.progress,
    )
    print(card_markdown(card))
    for folder in dict.fromkeys(f for f in (args.out, args.save_games) if f):
        for path in write_card(card, Path(folder)):
            print(f"wrote {path}")
    return card


if __name__ == "__main__":
    main(parse_args(Args))
