"""The benchmark's default budget for an agent, from a sample of its games: processor seconds
per game against every reference at every table, times the default games.

    nice python scripts/benchmark_budget.py scripts/one_ms_agent.py:OneMillisecond --deals 2

Each cell plays ``--deals`` deals of the benchmark's seed set in every seating, in this
process, and counts this process's processor time (so the figure does not depend on how busy
the machine is); the default budget is the sum over cells of seconds per game times the
default games, and its wall time on K cores about that divided by K.
"""

from __future__ import annotations

import argparse
import time

from boardgame_envs.agents.specs import make_agent
from boardgame_envs.registry import make_rules
from boardgame_envs.training.evaluation import benchmark
from boardgame_envs.training.evaluation.tournament import play_one


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("agent", help="the agent's spec")
    parser.add_argument("--deals", type=int, default=2, help="deals a cell")
    args = parser.parse_args()
    total = 0.0
    print("| game | players | reference | CPU s a game | default games | CPU s |")
    print("|---|---:|---|---:|---:|---:|")
    for table in benchmark.benchmark_tables():
        rules = make_rules(table.game)
        lone = make_agent(args.agent, table.game)
        for ref in table.references:
            others = [make_agent(ref, table.game) for _ in range(table.num_players - 1)]
            games = args.deals * table.num_players
            started = time.process_time()
            for g in range(games):
                play_one(rules, lone, others, benchmark.SEED, g, duplicate=True)
            per_game = (time.process_time() - started) / games
            cost = per_game * table.games
            total += cost
            print(
                f"| {table.game} | {table.num_players} | {ref} | {per_game:.3f} "
                f"| {table.games} | {cost:.0f} |",
                flush=True,
            )
    minutes = total / 60
    print(
        f"\ndefault budget: {minutes:.1f} CPU minutes; on 2 cores about {minutes / 2:.1f} minutes"
    )


if __name__ == "__main__":
    main()
