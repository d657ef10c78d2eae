"""The leaderboard: every game's league of all its agents, at two players and at its largest
table, written as a page with its figures into an output folder (``--out``, by default
leaderboard/ in the current folder).

    boardgame-envs leaderboard --games wasabi --two-player-games 20   # leaderboard/leaderboard.md
    make leaderboard          # = boardgame-envs leaderboard --workers 2 --publish

``--publish`` writes the project's own page instead, ``docs/leaderboard.md`` (the figures in
``docs/leaderboard/``), and the top row of each game into the README's leaderboard block; it
is run from the repository's root. Every target is checked before the first game.

Each (game, table size) is its own league (``boardgame_envs.training.evaluation.league``),
so its ratings compare agents at that table only. The page says when, at which commit and by
which command it was made; rerunning the command at that commit gives the same tables (no
agent has a clock budget), except the seconds per decision.

The whole page takes hours on 2 cores, so every finished pairing is kept in
``--checkpoints``: the same command rerun (after an interruption, or on another day) plays
only the pairings not finished yet, as long as what decides a game's games (the engines,
the agents and that game's models, the game loop: ``PLAY_PATHS``) is the same commit's;
commits that change only docs, training code or another game's models keep what was
played. Nothing is kept while that code has uncommitted changes, since its games could not
be reproduced.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from boardgame_envs.agents.specs import make_agent, split_agent_specs
from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.registry import GAMES, game_info, make_rules
from boardgame_envs.training.cli_args import (
    at_least,
    check_fields,
    check_output_file,
    check_output_folder,
    one_of,
    parse_args,
)
from boardgame_envs.training.evaluation.duplicate import check_duplicate_games
from boardgame_envs.training.evaluation.league import Args as LeagueArgs
from boardgame_envs.training.evaluation.league import (
    default_agents,
    git_output,
    provenance,
    ranked,
    run_league,
    save_rating_plot,
    win_share_matrix,
)
from boardgame_envs.training.evaluation.tournament import (
    KeptPairings,
    PairingResult,
    Tournament,
    save_heatmap,
)
from boardgame_envs.training.parallel import BACKENDS

LEADERBOARD_SEARCH = "ismcts:seconds=0"
README_START = "<!-- leaderboard:start -->"
README_END = "<!-- leaderboard:end -->"
#: The page's name in its folder; its figures go in the folder of the same name without .md.
PAGE = "leaderboard.md"
DEFAULT_OUT = "leaderboard"
#: Where --publish writes: the project's docs and README (from the repository's root).
PUBLISHED_PAGE_FOLDER = "docs"
PUBLISHED_README = "README.md"
#: --tables: which table sizes of each game are played.
TABLES = ("all", "two", "largest")


@dataclass
class Args:
    games: str = "all"
    """comma-separated game ids, or "all" """
    tables: str = "all"
    """which tables of each game: all (two players and the largest), two or largest (to
    remake one table when only its agents changed)"""
    agents: str = ""
    """agent specs for every league ("" = random, heuristic, the game's shipped ppo policy and
    network if any, --search, and ismcts-net with the shipped network)"""
    search: str = LEADERBOARD_SEARCH
    """the search agent's spec(s) in the default agent list: its per-game default budget
    without the clock (iterations alone, so the page reproduces on any machine)"""
    two_player_games: int = 200
    """games per pairing at two players"""
    large_table_games: int = 10
    """games per pairing (per direction) at the game's largest table"""
    seed: int = 4_000_000_000
    """seed of game 0 of every league (never used for tuning)"""
    duplicate: bool = False
    """duplicate deals: every deal played in every seating, intervals over deals; the games
    per pairing must then be a multiple of the table size"""
    workers: int = 2
    """processes (or Ray tasks at a time) that play games in parallel"""
    backend: str = "local"
    """local or ray"""
    ray_address: str = ""
    """with --backend ray: a running cluster ("" = a local Ray instance)"""
    out: str = DEFAULT_OUT
    """folder for the page, leaderboard.md, and its figures, leaderboard/ (made if needed)"""
    readme: str = ""
    """a README whose leaderboard block (between its markers) gets each game's top row ("" =
    none)"""
    publish: bool = False
    """write the project's own page: docs/leaderboard.md and the top rows into README.md, from
    the repository's root (in place of --out and --readme)"""
    progress: bool = True
    """show a progress bar per league"""
    checkpoints: str = "league/leaderboard-checkpoints"
    """folder keeping every finished pairing, so that the same command rerun with the same
    engines and agents (committed) plays only the pairings not finished yet ("" = keep
    none)"""

    def __post_init__(self) -> None:
        check_fields(
            self,
            {
                "two_player_games": at_least(1),
                "large_table_games": at_least(1),
                "seed": at_least(0),
                "workers": at_least(1),
                "backend": one_of(*BACKENDS),
                "tables": one_of(*TABLES),
            },
        )
        games = self.game_list()
        if self.duplicate:
            sizes = {n for game in games for n in table_sizes(game, self.tables)}
            if 2 in sizes:
                check_duplicate_games(self.two_player_games, [2], "--two-player-games")
            largest = sorted(sizes - {2})
            check_duplicate_games(self.large_table_games, largest, "--large-table-games")
        if self.publish and self.tables != "all":
            raise InvalidConfigError(
                f"--publish writes the whole page, and --tables {self.tables} makes a part of "
                "it; give --publish without --tables, or --out for the part"
            )
        if self.publish:
            if self.out != DEFAULT_OUT or self.readme:
                raise InvalidConfigError(
                    "--publish writes docs/leaderboard.md and README.md; give it without "
                    "--out and --readme"
                )
            self.out, self.readme = PUBLISHED_PAGE_FOLDER, PUBLISHED_README
        check_output_folder("--out", self.out)
        check_output_file("--out", Path(self.out) / PAGE)
        if self.readme:
            check_readme(self.readme, "--publish" if self.publish else "--readme")
        if self.checkpoints:
            check_output_folder("--checkpoints", self.checkpoints)

    def game_list(self) -> list[str]:
        if self.games == "all":
            return list(GAMES)
        names = [name.strip() for name in self.games.split(",") if name.strip()]
        for name in names:
            game_info(name)  # InvalidConfigError for an unknown game
        return names


def table_sizes(game: str, tables: str = "all") -> list[int]:
    """The table sizes of ``game``'s leaderboard: two players (or its fewest) and its
    largest; ``tables`` keeps one of them (``two``, ``largest``) or both (``all``)."""
    rules = make_rules(game)
    two = 2 if rules.min_players <= 2 else rules.min_players
    if tables == "two":
        return [two]
    if tables == "largest":
        return [rules.max_players]
    return sorted({two, rules.max_players})


def ratings_table(tournament: Tournament) -> str:
    thinking = _seconds_per_decision(tournament.results)
    lines = [
        "| rank | agent | μ − 3σ | μ | σ | s/decision |",
        "|---:|---|---:|---:|---:|---:|",
    ]
    for rank, (name, mu, sigma) in enumerate(ranked(tournament), 1):
        seconds = f"{thinking[name]:.4f}" if name in thinking else "–"
        lines.append(
            f"| {rank} | {name} | {mu - 3 * sigma:.2f} | {mu:.2f} | {sigma:.2f} | {seconds} |"
        )
    return "\n".join(lines)


def _seconds_per_decision(results: list[PairingResult]) -> dict[str, float]:
    """Each agent's mean thinking time over every game it played, in every seat."""
    decisions: dict[str, int] = {}
    seconds: dict[str, float] = {}
    for r in results:
        for name, count, spent in (
            (r.agent, r.decisions, r.decision_seconds),
            (r.opponent, r.field_decisions, r.field_seconds),
        ):
            decisions[name] = decisions.get(name, 0) + count
            seconds[name] = seconds.get(name, 0.0) + spent
    return {name: seconds[name] / count for name, count in decisions.items() if count}


def game_section(
    game: str, leagues: dict[int, Tournament], games: dict[int, int], figures: Path, page: Path
) -> str:
    parts = [f"## {game_info(game).title} (`{game}`)", ""]
    for n, tournament in leagues.items():
        folder = figures / game
        folder.mkdir(parents=True, exist_ok=True)
        heatmap = save_heatmap(tournament, n, folder / f"heatmap_{n}p.png")
        ratings = save_rating_plot(tournament, folder / f"ratings_{n}p.png")
        parts += [
            f"### {n} players ({games[n]} games per pairing)",
            "",
            ratings_table(tournament),
            "",
            win_share_matrix(tournament, n),
            "",
            f"![{game} {n}-player win shares]({_relative(heatmap, page)}) "
            f"![{game} {n}-player ratings]({_relative(ratings, page)})",
            "",
        ]
    return "\n".join(parts)


def _relative(path: Path, page: Path) -> str:
    return str(path.relative_to(page.parent))


def top_rows(leagues: dict[str, dict[int, Tournament]]) -> str:
    lines = [
        "| game | players | best agent (μ − 3σ) | runner-up |",
        "|---|---:|---|---|",
    ]
    for game, by_size in leagues.items():
        for n, tournament in by_size.items():
            rows = ranked(tournament)
            best = f"{rows[0][0]} ({rows[0][1] - 3 * rows[0][2]:.1f})"
            second = f"{rows[1][0]} ({rows[1][1] - 3 * rows[1][2]:.1f})" if len(rows) > 1 else "–"
            lines.append(f"| {game} | {n} | {best} | {second} |")
    return "\n".join(lines)


_README_BLOCK = re.compile(re.escape(README_START) + ".*?" + re.escape(README_END), re.S)


def check_readme(path: str | Path, flag: str) -> None:
    """``InvalidConfigError`` naming ``flag`` unless ``path`` is a README the leaderboard can
    update: a writable file with a leaderboard block between its markers."""
    path = Path(path)
    if not path.is_file():
        where = " (run --publish from the repository's root)" if flag == "--publish" else ""
        raise InvalidConfigError(f"{flag}: {path} is not a file{where}")
    if not _README_BLOCK.search(path.read_text()):
        raise InvalidConfigError(
            f"{flag}: {path} has no leaderboard block; add the lines {README_START} and "
            f"{README_END} where the top rows go"
        )
    check_output_file(flag, path)


def update_readme(readme: Path, block: str) -> None:
    text = readme.read_text()
    replacement = f"{README_START}\n{block}\n{README_END}"
    readme.write_text(_README_BLOCK.sub(lambda _: replacement, text))


#: What decides the leaderboard's games besides its arguments: the engines, the agents (with
#: their shipped models) and the loop that plays a game.
PLAY_PATHS = ("boardgame_envs", "native", "agents", "training/evaluation/tournament.py")
MODELS = "agents/models"


def play_version(game: str) -> str | None:
    """A digest of the committed ``PLAY_PATHS`` that decide ``game``'s games: all of them
    but the models of other games (a model's file name starts with its game's id). None when
    any of them has uncommitted changes (or this is not a git checkout): games played then
    could not be reproduced. Commits to the docs or the training code, or a new model for
    another game, keep the same version."""
    if git_output("status", "--porcelain", "--", *PLAY_PATHS) != "":
        return None
    listing = git_output("ls-tree", "-r", "HEAD", "--", *PLAY_PATHS)
    if not listing:
        return None
    wanted = [
        line
        for line in listing.splitlines()
        if not line.split("\t", 1)[-1].startswith(MODELS + "/")
        or Path(line.split("\t", 1)[-1]).name.startswith(game + "_")
    ]
    return hashlib.sha256("\n".join(wanted).encode()).hexdigest()[:16]


def kept_pairings(folder: str, game: str) -> KeptPairings | None:
    """Where ``game``'s finished pairings are kept and read back, or None (no folder, or
    code that decides the games has uncommitted changes)."""
    version = play_version(game) if folder else None
    if version is None:
        if folder:
            print("the engines or agents have uncommitted changes: no pairing is kept")
        return None
    return KeptPairings(folder, version)


def league_agents(args: Args) -> dict[tuple[str, int], list[str]]:
    """The agents of every league, {(game, table size): specs}, each built once so that a
    spec one of the games cannot seat fails before the first game of any."""
    agents = {}
    for game in args.game_list():
        for n in table_sizes(game, args.tables):
            specs = split_agent_specs(args.agents) or default_agents(
                game, split_agent_specs(args.search), (n,)
            )
            for spec in specs:
                make_agent(spec, game)
            agents[game, n] = specs
    return agents


def main(args: Args) -> Path:
    agents = league_agents(args)
    page = Path(args.out) / PAGE
    figures = page.with_suffix("")
    made = provenance("boardgame_envs.training.evaluation.leaderboard")
    leagues: dict[str, dict[int, Tournament]] = {}
    sections = []
    staging = figures.with_name(figures.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    for game in args.game_list():
        sizes = table_sizes(game, args.tables)
        games = {n: args.two_player_games if n == 2 else args.large_table_games for n in sizes}
        leagues[game] = {}
        kept = kept_pairings(args.checkpoints, game)
        for n in sizes:
            league_args = LeagueArgs(
                game=game,
                num_players=str(n),
                agents=",".join(agents[game, n]),
                games=games[n],
                seed=args.seed,
                duplicate=args.duplicate,
                workers=args.workers,
                backend=args.backend,
                ray_address=args.ray_address,
                progress=args.progress,
            )
            leagues[game][n] = run_league(league_args, kept)
        sections.append(game_section(game, leagues[game], games, staging, page))
    text = "\n".join(
        [
            "# Leaderboard",
            "",
            made,
            "",
            "Every agent a game has plays in a round robin per game and table size:",
            "",
            "- `random` and `heuristic`;",
            "- the shipped PPO policy and expert-iteration network (`net:<game>`) where there are;",
            f"- the search agent (`{args.search}`: its default budget, iterations alone; its "
            "strength is measured in [results.md](results.md));",
            "- the search guided by the network (`ismcts-net:<game>,seconds=0`) at the table "
            "sizes a network is shipped for.",
            "",
            (
                f"Deals are duplicate (every deal played in every seating; game g of every "
                f"pairing at n players is dealt from seed {args.seed:,} + g // n)."
                if args.duplicate
                else f"Deals are common (game g of every pairing is dealt from seed {args.seed:,} "
                "+ g), the lone agent's seat rotated."
            )
            + " Ratings are openskill (Plackett–Luce), ranked by the conservative μ − 3σ. A "
            "matrix cell is the row agent's win share alone against the column agent in every "
            "other seat, with its "
            + ("95% interval over deals (Student's t)" if args.duplicate else "Wilson 95% interval")
            + ". Seconds per decision are measured on the "
            "machine that made the page (two worker processes on 2 cores) and vary from run "
            "to run; everything else is reproduced exactly by the command above.",
            "",
            "## Top of each table",
            "",
            top_rows(leagues),
            "",
            *sections,
        ]
    )
    shutil.rmtree(figures, ignore_errors=True)
    # The figures were written under the staging folder's name: point the page at the final one.
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(text.replace(f"{staging.name}/", f"{figures.name}/") + "\n")
    staging.rename(figures)
    if args.readme:
        update_readme(Path(args.readme), top_rows(leagues))
    print(f"wrote {page} and {figures}/")
    return page


if __name__ == "__main__":
    main(parse_args(Args))
