"""What duplicate deals buy: interval widths of close pairs, duplicate against plain.

For each game, close pairs of agents play the same number of games twice: plainly (game g
dealt from seed + g, seats rotated) and on duplicate deals (deal seed + g // 2 in both
seatings). For each run it keeps the first agent's win share, its 95% interval as the
command reports it (plain: Wilson over games; duplicate: Student's t over deals) and, for
the duplicate run, the Wilson interval of the same games taken as independent, which is what
a plain run of that many games would report. The games a width of 0.10 needs follow from
the width (it shrinks as one over the square root of the games).

    python scripts/duplicate_gain.py --out duplicate-gain      # resumable; runs niced (+10)
    python scripts/duplicate_gain.py --out duplicate-gain --table         # the docs' table

Each run is one JSON file in --out, written when it ends; a rerun skips the runs found.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from boardgame_envs.training.evaluation.duplicate import width_needed_games
from boardgame_envs.training.evaluation.tournament import evaluate, wilson_interval

GAMES = ("factors_multiples", "cornucopia", "carcassonne_castle", "tahiti", "wasabi")
#: Today's search against its first tuned settings, on the seeds docs/results.md measured
#: them on plainly (300 games); Cornucopia's and Carcassonne's defaults are their v1, so
#: there the search plays itself at half its iterations.
SEARCH_PAIRS = {
    "factors_multiples": ("ismcts:seconds=0", "ismcts:preset=v1,seconds=0", 3_600_000_000),
    "tahiti": ("ismcts:seconds=0", "ismcts:preset=v1,seconds=0", 3_610_000_000),
    "wasabi": ("ismcts:seconds=0", "ismcts:preset=v1,seconds=0", 3_620_000_000),
    "cornucopia": ("ismcts:seconds=0", "ismcts:seconds=0,iterations=24", 8_230_000_000),
    "carcassonne_castle": ("ismcts:seconds=0", "ismcts:seconds=0,iterations=25", 8_240_000_000),
}
SEARCH_GAMES = 200
NET_GAMES = 400
NET_SEED = 8_100_000_000  # + 10,000,000 per game, in the order of GAMES
TARGET_WIDTH = 0.10


def runs() -> list[dict]:
    """Every run, cheap ones first (Tahiti's network pair, whose games are long, last)."""
    net_runs, search_runs = [], []
    for i, game in enumerate(GAMES):
        for duplicate in (True, False):
            net_runs.append(
                {
                    "game": game,
                    "agents": (f"net:{game}", f"ppo:{game}"),
                    "games": NET_GAMES,
                    "seed": NET_SEED + 10_000_000 * i,
                    "duplicate": duplicate,
                }
            )
    for game in ("wasabi", "tahiti", "factors_multiples", "cornucopia", "carcassonne_castle"):
        a, b, seed = SEARCH_PAIRS[game]
        search_runs.append(
            {"game": game, "agents": (a, b), "games": SEARCH_GAMES, "seed": seed, "duplicate": True}
        )
    tahiti = [run for run in net_runs if run["game"] == "tahiti"]
    return [run for run in net_runs if run["game"] != "tahiti"] + search_runs + tahiti


def name_of(run: dict) -> str:
    kind = "duplicate" if run["duplicate"] else "plain"
    pair = "-vs-".join(
        a.replace(":", "_").replace(",", "_").replace("=", "") for a in run["agents"]
    )
    return f"{run['game']}-{pair}-{kind}-{run['games']}-{run['seed']}.json"


def play(run: dict, workers: int) -> dict:
    started = time.perf_counter()
    tournament = evaluate(
        run["game"],
        list(run["agents"]),
        games=run["games"],
        seed=run["seed"],
        workers=workers,
        duplicate=run["duplicate"],
    )
    result = tournament.result(*run["agents"])
    low, high = result.ci95
    w_low, w_high = wilson_interval(result.win_points, result.games)
    return {
        **run,
        "wins": result.wins,
        "draws": result.draws,
        "losses": result.losses,
        "win_share": result.win_share,
        "ci95": [low, high],
        "wilson_over_games": [w_low, w_high],
        "points": result.points,
        "seconds": time.perf_counter() - started,
    }


def table(out: Path) -> str:
    found = {p.name: json.loads(p.read_text()) for p in out.glob("*.json")}
    lines = [
        "| game | pair: A vs B (A's win share) | games | seeds | plain: A's share [95% CI] "
        "(width) | duplicate: A's share [95% CI over deals] (width) | games for width 0.10: "
        "plain / duplicate |",
        "|---|---|---:|---|---|---|---|",
    ]
    order = sorted(runs(), key=lambda r: (GAMES.index(r["game"]), "ismcts" in r["agents"][0]))
    for run in order:
        if not run["duplicate"]:
            continue
        done = found.get(name_of(run))
        if done is None:
            continue
        plain = found.get(name_of({**run, "duplicate": False}))
        n = done["games"]
        d_low, d_high = done["ci95"]
        if plain is not None:
            p_low, p_high = plain["ci95"]
            plain_text = (
                f"{plain['win_share']:.3f} [{p_low:.3f}, {p_high:.3f}] ({p_high - p_low:.3f})"
            )
        else:  # the duplicate games taken as independent: what a plain run of n games reports
            p_low, p_high = done["wilson_over_games"]
            plain_text = f"({p_high - p_low:.3f})*"
        need_plain = width_needed_games(p_high - p_low, n, TARGET_WIDTH)
        need_dup = width_needed_games(d_high - d_low, n, TARGET_WIDTH)
        lines.append(
            f"| {done['game']} | `{done['agents'][0]}` vs `{done['agents'][1]}` | {n} "
            f"| {done['seed']:,} + | {plain_text} | {done['win_share']:.3f} [{d_low:.3f}, "
            f"{d_high:.3f}] ({d_high - d_low:.3f}) | {need_plain:,.0f} / {need_dup:,.0f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="duplicate-gain", help="folder of the runs")
    parser.add_argument("--workers", type=int, default=2, help="processes per run")
    parser.add_argument("--table", action="store_true", help="print the table of the runs done")
    parser.add_argument("--only", default="", help="run only the runs whose file name has this")
    args = parser.parse_args()
    out = Path(args.out)
    if args.table:
        print(table(out))
        return
    os.nice(10)
    out.mkdir(parents=True, exist_ok=True)
    for run in runs():
        path = out / name_of(run)
        if path.exists() or args.only not in path.name:
            continue
        print(f"playing {path.name}", flush=True)
        done = play(run, args.workers)
        partial = path.with_suffix(".partial")
        partial.write_text(json.dumps(done))
        partial.replace(path)
        print(f"  {done['win_share']:.3f} {done['ci95']} in {done['seconds']:.0f} s", flush=True)


if __name__ == "__main__":
    main()
