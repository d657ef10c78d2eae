"""Agents measured: tournaments with confidence intervals and ratings (``boardgame-envs
eval``), leagues (``league``), the published leaderboard (``leaderboard``), benchmarks
(``bench``), and the evaluations during training (learning curves).

    tournament.py      every pairing played on common deals, seats rotated: ``evaluate``
    league.py          a round robin of a game's agents: matrix, ratings, plots
    leaderboard.py     every game's league, into docs/leaderboard.md and the README
    bench.py           the speed of the engines, the heuristics, the networks, the learner
    learning_curve.py  a training run's evaluations: eval.csv and learning_curve.png

From Python::

    from boardgame_envs.training.evaluation import evaluate, markdown_table

    tournament = evaluate("wasabi", {"mine": "my_agents.py:FirstLegal", "heuristic": "heuristic"})
    print(markdown_table(tournament))
"""

from boardgame_envs.training import public_names

#: Each public name and the module of the room that defines it (imported when first used).
PUBLIC = {
    "evaluate": "tournament",
    "markdown_table": "tournament",
    "run_tournament": "tournament",
    "evaluate_against": "tournament",
    "play_game": "tournament",
    "wilson_interval": "tournament",
    "write_outputs": "tournament",
    "Tournament": "tournament",
    "PairingResult": "tournament",
    "KeptPairings": "tournament",
    "run_league": "league",
    "default_agents": "league",
    "plot_learning_curve": "learning_curve",
}
__all__ = list(PUBLIC)
__getattr__ = public_names(__name__, PUBLIC)
