"""Evaluate your own agent against the shipped ones, from Python.

What it shows: ``boardgame_envs.training.evaluation.evaluate``, the Python face of ``boardgame-envs
eval``. Your agents (``my_agent.py``: ``GreedyAgent`` and ``FirstLegal``) and the shipped ones
(``heuristic``, ``random``) play a tournament: every pair of agents plays ``--games``
games, seats rotated and game g dealt from ``seed + g`` in every pairing. It prints the
table (wins, draws, losses, win share with its 95% interval, mean score, thinking time)
and the openskill ratings. From a shell, the command line plays such a tournament too:

    boardgame-envs eval wasabi --agents examples/my_agent.py:GreedyAgent,heuristic

Run it with

    python examples/evaluate_my_agent.py                 # Wasabi!, 100 games a pairing
    python examples/evaluate_my_agent.py cornucopia --num-players 3 --workers 2
    python examples/evaluate_my_agent.py --quick         # 2 games a pairing
"""

import argparse
from pathlib import Path

from boardgame_envs.training.evaluation import evaluate, markdown_table

MY_AGENTS = Path(__file__).resolve().parent / "my_agent.py"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="wasabi", help="the game (boardgame-envs list)")
    parser.add_argument("--num-players", type=int, default=2, help="seats at the table")
    parser.add_argument("--games", type=int, default=100, help="games per pairing")
    parser.add_argument("--workers", type=int, default=1, help="processes playing games")
    parser.add_argument("--seed", type=int, default=0, help="game g is dealt from seed + g")
    parser.add_argument("--quick", action="store_true", help="2 games a pairing")
    args = parser.parse_args()
    games = 2 if args.quick else args.games

    # Names (the table's labels) -> agent specs, the strings every command takes. Your own
    # agent is "path/to/file.py:Name" (or "package.module:Name" for an importable module).
    # A spec is plain text, so with workers > 1 each worker process builds its own copy.
    # An object works too with workers=1: {"greedy": GreedyAgent(), ...}.
    agents = {
        "greedy": f"{MY_AGENTS}:GreedyAgent",
        "first-legal": f"{MY_AGENTS}:FirstLegal",
        "heuristic": "heuristic",  # the game's rule-based player, the reference opponent
        "random": "random",
    }
    tournament = evaluate(
        args.game,
        agents,
        games=games,
        num_players=args.num_players,
        seed=args.seed,
        workers=args.workers,
        progress=True,  # a progress bar on stderr
    )
    print(markdown_table(tournament))

    print()
    for opponent in ("random", "heuristic"):
        result = tournament.result("greedy", opponent, args.num_players)  # a PairingResult
        low, high = result.ci95
        print(
            f"greedy against {opponent}: win share {result.win_share:.3f} "
            f"[{low:.3f}, {high:.3f}] over {result.games} games "
            f"({result.wins} won, {result.draws} drawn, {result.losses} lost)"
        )


if __name__ == "__main__":
    main()
