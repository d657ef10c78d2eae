"""Plots the win share against the heuristic of one long run's checkpoints.

Each argument is ``STEPS=FOLDER``: the ``--out`` folder of
``boardgame-envs eval --agents ppo:<checkpoint>,heuristic --games 2000 --out FOLDER``
for the checkpoint saved at STEPS learner steps. The last argument names the PNG.
docs/results.md ("Runs behind the recipes") gives the commands and the figures:

    python docs/training/budget_curve.py wasabi 1000000=runs/eval/wasabi_1m ... out.png
"""

import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

game, points, png = sys.argv[1], sys.argv[2:-1], Path(sys.argv[-1])
rows = []
for point in points:
    steps, folder = point.split("=", 1)
    result = json.loads((Path(folder) / "results.json").read_text())["results"][0]
    if result["opponent"] != "heuristic":
        raise SystemExit(f"{folder}: its first pairing is against {result['opponent']!r}")
    rows.append((int(steps), result["win_share"], result["ci95_low"], result["ci95_high"]))
    print(f"{game} {int(steps):>9,}: {result['win_share']:.3f} "
          f"[{result['ci95_low']:.3f}, {result['ci95_high']:.3f}] over {result['games']} deals")
rows.sort()
steps = [r[0] / 1e6 for r in rows]
share = [r[1] for r in rows]
below = [r[1] - r[2] for r in rows]
above = [r[3] - r[1] for r in rows]
figure, axes = plt.subplots(figsize=(5, 3.2))
axes.errorbar(steps, share, yerr=[below, above], marker="o", capsize=3, label=game)
axes.axhline(0.6, color="grey", linestyle="--", linewidth=1, label="target 0.60")
axes.axhline(0.5, color="grey", linestyle=":", linewidth=1, label="the heuristic's own")
axes.set_xlabel("learner steps (millions)")
axes.set_ylabel("win share against the heuristic")
axes.set_title(f"{game}: one run's checkpoints, 2,000 deals each, 95% intervals", fontsize=9)
axes.legend(fontsize=8, loc="lower right")
figure.tight_layout()
figure.savefig(png, dpi=100)
print(f"wrote {png}")
