"""How a run is doing: evaluations during training, ``eval.csv`` and ``learning_curve.png``.

Every ``--eval-every`` timesteps, and once at the end, the policy plays ``--eval-games``
games against each of :func:`eval_opponents` (seats rotated, deals from ``EVAL_SEED`` on,
never a training deal). Each evaluation adds one row per opponent to the run's ``eval.csv``:

    timesteps,opponent,games,win_share,ci95_low,ci95_high,mean_score

(``ci95_*``: the Wilson 95% interval of the win share) and redraws ``learning_curve.png``,
the win share against timesteps with those intervals shaded. Evaluating does not change the
model, only the run's CPU time; the win shares also go to tensorboard as
``eval/win_share_vs_<opponent>``.
"""

from __future__ import annotations

import csv
from pathlib import Path

from boardgame_envs.agents.ppo import PPOAgent
from boardgame_envs.agents.settings import has_heuristic


def eval_opponents(game: str) -> list[str]:
    """Who a run is measured against: random play and the game's heuristic (random play
    alone in a game without one)."""
    return ["random", "heuristic"] if has_heuristic(game) else ["random"]


EVAL_SEED = 1_000_000_000  # evaluation deals never overlap training seeds
EVAL_FILE = "eval.csv"
CURVE_FILE = "learning_curve.png"


def evaluate_and_log(model, args, run_dir: Path, timesteps: int, logger=None) -> list:
    """Evaluate ``model`` (a MaskablePPO playing its deterministic policy; ``args``: the
    run's :class:`boardgame_envs.training.ppo.train.Args`) against each of :func:`eval_opponents`,
    append the results to ``eval.csv``, record them in ``logger`` (SB3's, for tensorboard)
    when given, and redraw the learning curve. The results, per opponent."""
    from boardgame_envs.training.evaluation.tournament import evaluate_against

    agent = PPOAgent(model, deterministic=True, observe_mask=args.observe_mask)
    results = evaluate_against(
        agent,
        args.game,
        args.num_players,
        eval_opponents(args.game),
        args.eval_games,
        EVAL_SEED,
        name="ppo",
    )
    append_eval_rows(run_dir, [eval_row(r, timesteps=timesteps) for r in results])
    if logger is not None:
        for r in results:
            logger.record(f"eval/win_share_vs_{r.opponent}", r.win_share)
    plot_learning_curve(run_dir)
    return results


def eval_row(result, **first_columns) -> dict:
    """One row of ``eval.csv``: ``first_columns`` (such as ``timesteps``), then the
    opponent, games, win share with its 95% interval and mean score of ``result`` (an
    evaluation's result against one opponent), written as the file holds them."""
    low, high = result.ci95
    return dict(
        first_columns,
        opponent=result.opponent,
        games=result.games,
        win_share=f"{result.win_share:.4f}",
        ci95_low=f"{low:.4f}",
        ci95_high=f"{high:.4f}",
        mean_score=f"{result.mean_score:.3f}",
    )


def append_eval_rows(run_dir: Path, rows: list[dict]) -> Path:
    """Append ``rows`` to ``run_dir/eval.csv``, writing the header (the first row's keys)
    when the file is new."""
    path = run_dir / EVAL_FILE
    new_file = not path.exists()
    with path.open("a", newline="") as handle:
        writer = csv.writer(handle)
        if new_file and rows:
            writer.writerow(list(rows[0]))
        for row in rows:
            writer.writerow(list(row.values()))
    return path


def read_eval_rows(run_dir: Path) -> list[dict]:
    """The rows of ``run_dir/eval.csv`` (none when it does not exist yet)."""
    path = run_dir / EVAL_FILE
    if not path.exists():
        return []
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def plot_learning_curve(
    run_dir: Path,
    x: str = "timesteps",
    x_scale: float = 1.0,
    x_label: str | None = None,
    fair_share: float | None = None,
) -> Path:
    """``learning_curve.png``: each opponent's win share in ``eval.csv`` against its column
    ``x`` (times ``x_scale``, labelled ``x_label``), with the 95% intervals shaded and, given
    ``fair_share``, a line at it."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_eval_rows(run_dir)
    fig, ax = plt.subplots(figsize=(6, 4))
    for opponent in dict.fromkeys(r["opponent"] for r in rows):
        mine = [r for r in rows if r["opponent"] == opponent]
        xs = [float(r[x]) * x_scale for r in mine]
        ax.plot(xs, [float(r["win_share"]) for r in mine], marker="o", label=f"vs {opponent}")
        ax.fill_between(
            xs,
            [float(r["ci95_low"]) for r in mine],
            [float(r["ci95_high"]) for r in mine],
            alpha=0.2,
        )
    if fair_share is not None:
        ax.axhline(fair_share, color="grey", lw=0.8, ls="--", label="fair share")
    ax.set_xlabel(x_label or x)
    ax.set_ylabel("win share (95% CI)")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend()
    ax.set_title(run_dir.name)
    fig.tight_layout()
    path = run_dir / CURVE_FILE
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
