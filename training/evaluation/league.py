"""League: a round robin of a game's agents, with a win-share matrix, ratings and plots.

Every pair of agents meets at every table size asked for, on common deals (game g of every
pairing is dealt from seed + g) with the lone agent's seat rotating; by default the agents
are all a game has: random, heuristic, the shipped PPO policy where there is one, the
search agent at two budgets, and the shipped network alone and guiding the search where one
is shipped for the table size. Games run here, in ``--workers`` processes or as Ray tasks
(``--backend ray``, on a local instance or a cluster given by ``--ray-address``); the tables
are the same for every backend and worker count, as long as no agent has a time budget.

It writes ``results.md`` (the matrix with Wilson 95% intervals, openskill ratings μ, σ and
μ − 3σ, mean scores, seconds per decision, and how it was made), ``results.csv``,
``results.json``, a heatmap per table size and ``ratings.png`` into ``--out``; the folder
is written whole at the end, or not at all.

    boardgame-envs league cornucopia --num-players 2,4 --games 100 --workers 2
    boardgame-envs league wasabi --agents my_agents.py:FirstLegal,heuristic,random
"""

from __future__ import annotations

import datetime
import shlex
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from boardgame_envs.agents.settings import has_heuristic
from boardgame_envs.agents.specs import split_agent_specs
from boardgame_envs.registry import make_rules
from boardgame_envs.training.cli_args import (
    check_fields,
    check_game,
    check_output_folder,
    parse_args,
    parse_int_list,
)
from boardgame_envs.training.evaluation.duplicate import check_duplicate_games
from boardgame_envs.training.evaluation.tournament import (
    TOURNAMENT_ALLOWED,
    KeptPairings,
    Tournament,
    markdown_table,
    run_tournament,
    write_outputs,
)

ROOT = Path(__file__).resolve().parents[2]  # the repository (training/evaluation/..)
#: The search agent's league budgets: iterations only (no clock), so tables reproduce.
SEARCH_SPECS = ("ismcts:iterations=10,seconds=0", "ismcts:seconds=0")


def shipped_model(game: str, num_players: int = 2) -> str | None:
    """The agent spec of ``game``'s shipped policy for ``num_players`` (``ppo:<game>@<n>p``
    or ``ppo:<game>``; :func:`boardgame_envs.agents.ppo.shipped_policy_for`), or None."""
    from boardgame_envs.agents.ppo import shipped_policy_for

    name = shipped_policy_for(game, num_players)
    return f"ppo:{name}" if name is not None else None


def shipped_net_agents(game: str, num_players: int = 2) -> list[str]:
    """The agent specs of ``game``'s network shipped for ``num_players``, if there is one:
    the network alone (``net:<name>``) and guiding the search at its default budget without
    the clock (``ismcts-net:<name>,seconds=0``, reproducible like SEARCH_SPECS). A network
    reads one table size only: ``<game>`` is the 2-player one, ``<game>@<n>p`` the others."""
    from boardgame_envs.agents.policy_value import shipped_nets

    name = game if num_players == 2 else f"{game}@{num_players}p"
    if name not in shipped_nets():
        return []
    return [f"net:{name}", f"ismcts-net:{name},seconds=0"]


def default_agents(
    game: str, search_specs: Sequence[str] = SEARCH_SPECS, table_sizes: Sequence[int] = (2,)
) -> list[str]:
    """Every agent the game has at ``table_sizes``: random, heuristic, its shipped PPO
    policy (if any; the one fine-tuned for the table size where there is one), the search
    agent at the given budgets (by default a small one and the game's default), and the
    shipped network alone and guiding the search where one is shipped for the table size
    (a league over several sizes has the 2-player policy and no network: each reads one
    size)."""
    agents = ["random", "heuristic"] if has_heuristic(game) else ["random"]
    sizes = set(table_sizes)
    size = sizes.pop() if len(sizes) == 1 else None
    model = shipped_model(game, size or 2)
    if model is not None:
        agents.append(model)
    nets = shipped_net_agents(game, size) if size is not None else []
    return agents + nets[:1] + list(search_specs) + nets[1:]


@dataclass
class Args:
    game: str
    """game id (see ``boardgame-envs list``)"""
    num_players: str = "2"
    """table sizes, comma-separated (e.g. "2,4"); each must be allowed by the game"""
    agents: str = ""
    """comma-separated agent specs, as for eval, your own among them (module.path:attr or
    path/to/file.py:attr) ("" = every agent the game has: random, heuristic, the shipped
    policy ppo:<game> and network net:<game> where there are, ismcts at two budgets of
    iterations alone, and ismcts-net:<game>,seconds=0 where a network is shipped for the
    table size; a league over several table sizes has no network agents). ismcts
    stops each decision at 0.25 s by default, so its tables depend on the machine's speed;
    ismcts:seconds=0 gives reproducible tables"""
    games: int = 100
    """games per pairing (per direction with 3 or more players)"""
    seed: int = 0
    """seed of game 0; game g uses seed + g"""
    duplicate: bool = False
    """duplicate deals: every deal played in every seating (game g dealt from seed + g // n),
    intervals over deals; --games must then be a multiple of every table size"""
    workers: int = 1
    """processes (or Ray tasks at a time) that play games in parallel"""
    backend: str = "local"
    """where games are played: local or ray (needs the [ray] extra)"""
    ray_address: str = ""
    """with --backend ray: a running cluster to join, host:port, ray://host:port or auto
    ("" = start a local Ray instance with --workers CPUs)"""
    out: str = ""
    """folder for the results ("" = league/<game>)"""
    progress: bool = True
    """show a progress bar with an ETA"""
    save_games: str = ""
    """folder to save every game in, one JSON record each (<agent>-vs-<opponent>-<n>p-<game
    index>.json: deal seed, agents, actions), for boardgame-envs replay ("" = none)"""

    def __post_init__(self) -> None:
        check_game(self)
        check_fields(self, TOURNAMENT_ALLOWED)
        sizes = parse_int_list("num_players", self.num_players)
        if self.duplicate:
            check_duplicate_games(self.games, sizes)
        if self.game is not None:
            check_output_folder("--out", self.out or f"league/{self.game}")
        if self.save_games:
            check_output_folder("--save-games", self.save_games)


def run_league(args: Args, kept: KeptPairings | None = None) -> Tournament:
    """The league of ``args``; with ``kept``, pairings finished before are read from there
    and each new one is kept as it ends."""
    sizes = parse_int_list("num_players", args.num_players)
    specs = (
        split_agent_specs(args.agents)
        if args.agents
        else default_agents(args.game, table_sizes=sizes)
    )
    return run_tournament(
        args.game,
        specs,
        sizes,
        args.games,
        args.seed,
        args.progress,
        workers=args.workers,
        backend=args.backend,
        ray_address=args.ray_address,
        save_games=args.save_games or None,
        kept=kept,
        duplicate=args.duplicate,
    )


def win_share_matrix(tournament: Tournament, num_players: int) -> str:
    """Rows: the lone agent; columns: the agent in every other seat; cells: win share with
    its 95% interval."""
    results = [r for r in tournament.results if r.num_players == num_players]
    names = list(dict.fromkeys(r.agent for r in results))
    cells = {(r.agent, r.opponent): r for r in results}
    lines = [
        f"| {num_players} players: agent \\ field | " + " | ".join(names) + " |",
        "|---|" + "---:|" * len(names),
    ]
    for agent in names:
        row = []
        for opponent in names:
            r = cells.get((agent, opponent))
            if r is None:
                row.append("–")
            else:
                low, high = r.ci95
                row.append(f"{r.win_share:.2f} [{low:.2f}, {high:.2f}]")
        lines.append(f"| {agent} | " + " | ".join(row) + " |")
    return "\n".join(lines)


def ranked(tournament: Tournament) -> list[tuple[str, float, float]]:
    """(agent, μ, σ), best conservative rating (μ − 3σ) first."""
    rows = [(name, mu, sigma) for name, (mu, sigma) in tournament.ratings.items()]
    return sorted(rows, key=lambda row: -(row[1] - 3 * row[2]))


def provenance(module: str = "boardgame_envs.training.evaluation.league") -> str:
    """When, at which commit and by which command line these results were made."""
    called = Path(sys.argv[0]).name
    command_line = ("boardgame-envs", "__main__.py", "commands.py")  # the console script, -m cli
    program = "boardgame-envs" if called in command_line else f"python -m {module}"
    command = " ".join([program, *map(shlex.quote, sys.argv[1:])])
    return f"Made on {datetime.date.today().isoformat()} at commit {git_commit()} by `{command}`."


def git_commit() -> str:
    """The short hash of the commit checked out ("unknown" outside a git checkout)."""
    return git_output("rev-parse", "--short", "HEAD") or "unknown"


def git_output(*arguments: str) -> str | None:
    """What ``git <arguments>`` prints in the repository, stripped; None when git fails."""
    try:
        done = subprocess.run(
            ["git", *arguments], cwd=ROOT, capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def league_markdown(tournament: Tournament, games: int, made: str) -> str:
    sizes = sorted({r.num_players for r in tournament.results})
    if tournament.duplicate:
        how = (
            f"{games} games per pairing, duplicate deals: each deal played in every seating "
            "(game g dealt from seed + g // n). A cell is the row agent's win share (shared "
            "wins count 1/k) alone against the column agent in every other seat, with its 95% "
            "interval computed over deals (Student's t of the per-deal means)."
        )
    else:
        how = (
            f"{games} games per pairing, common deals, the lone agent's seat rotated. A cell "
            "is the row agent's win share (shared wins count 1/k) alone against the column "
            "agent in every other seat, with its Wilson 95% interval."
        )
    parts = [f"# League: {tournament.game}", "", made, "", how, ""]
    for n in sizes:
        parts += [win_share_matrix(tournament, n), ""]
    parts += [markdown_table(tournament), ""]
    return "\n".join(parts)


def save_rating_plot(tournament: Tournament, path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = ranked(tournament)[::-1]  # best at the top
    names = [name for name, _, _ in rows]
    mu = np.array([m for _, m, _ in rows])
    sigma = np.array([s for _, _, s in rows])
    fig, ax = plt.subplots(figsize=(7, 1.0 + 0.5 * len(rows)))
    ax.errorbar(mu, range(len(rows)), xerr=3 * sigma, fmt="o", capsize=4, label="μ ± 3σ")
    ax.plot(mu - 3 * sigma, range(len(rows)), "k|", markersize=12, label="μ − 3σ")
    ax.set_yticks(range(len(rows)), labels=names)
    ax.set_xlabel("openskill rating")
    sizes = sorted({r.num_players for r in tournament.results})
    players = f", {sizes[0]} players" if len(sizes) == 1 else ""
    ax.set_title(f"{tournament.game}{players}: ratings")
    ax.legend(loc="lower right", fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def write_league(tournament: Tournament, out: Path, games: int, made: str) -> list[Path]:
    """Everything into ``out``, built in a sibling folder and moved into place at the end."""
    partial = out.with_name(out.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    write_outputs(tournament, partial)
    (partial / "results.md").write_text(league_markdown(tournament, games, made))
    save_rating_plot(tournament, partial / "ratings.png")
    shutil.rmtree(out, ignore_errors=True)
    partial.rename(out)
    return sorted(out.iterdir())


def main(args: Args) -> Tournament:
    make_rules(args.game)  # an unknown game is refused before anything is played
    tournament = run_league(args)
    out = Path(args.out or f"league/{args.game}")
    made = provenance()
    print(league_markdown(tournament, args.games, made))
    for path in write_league(tournament, out, args.games, made):
        print(f"wrote {path}")
    return tournament


if __name__ == "__main__":
    main(parse_args(Args))
