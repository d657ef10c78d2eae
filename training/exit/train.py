"""Expert iteration: a policy-value network trained on the search's decisions, repeatedly.

Before the first iteration, the warm start (iteration 0): the network learns the moves of a
teacher (``--imitate``: the heuristic, or e.g. a PPO policy's move distributions) in
``imitation_games`` of its games against heuristics; ``--iterations 0`` stops there. A
network given by ``--init`` takes its place: iteration 0 evaluates it. Then each iteration:

1. **Play and label.** ``games_per_iteration`` games are dealt (seeded, the learner's seat
   rotated). The learner's seat is played by the current network (``net:``, sampling from
   its policy, for exploration; in the first iteration, before any training, by the
   heuristic); the other seats by opponents drawn from ``--opponent``: ``heuristic``,
   ``random``, ``self-play`` (the current network), ``past`` (one of the ``pool_size``
   networks of earlier iterations) or any agent spec. At a share ``label_share`` of the
   learner's decisions (those with two or more legal moves), the search (``--search``,
   by default the game's reproducible ``ismcts:seconds=0``) decides from the learner's view,
   and the sample (observation, legal mask, the search's improved move distribution from
   ``boardgame_envs.agents.search_net.search_policy_target``) is kept; the game then goes on with
   the searched move (``--play searched``) or the network's own (``--play net``). When the game
   ends, every sample of it gets the value target: ``state.returns()`` ordered from the
   labelled seat (index 0 = that seat, 1 = the next in turn order, ...).
2. **Learn.** The samples of the last ``window`` iterations are the replay window; Adam
   takes minibatches from all of it, as many as ``epochs`` passes over the iteration's new
   samples make, minimising the cross-entropy of the search's distribution against the
   masked policy plus ``value_weight`` times the squared error of the values.
3. **Evaluate** (every ``eval_every`` iterations and at the end): the network alone
   (``net:``, its most likely move) against the heuristic, and each agent of
   ``eval_against``, over ``eval_games`` deals from seed 1,000,000,000 (never dealt for
   training), seats rotated, with Wilson 95% intervals.

A search spec may name the current network as ``{net}``, e.g. ``--search
"ismcts-net:{net},prior=1"``: the search is then guided by the latest network (expert
iteration proper); until a network has been trained it is the game's plain search.

The games are played in ``--workers`` processes (``--backend local``) or Ray tasks
(``--backend ray``). Every game is a pure task: its seeds, the networks' bytes and the agent
specs in, arrays out; so a seed gives the same samples, hence the same network, for any
number of workers and either backend.

A run directory ``<out_dir>/<game>__exit__<seed>__<time>`` receives:

    config.json         the exact arguments
    net.pt              the latest network (``net:<run dir>``, ``ismcts-net:<run dir>``)
    eval.csv            win share against the heuristic, with CPU and wall seconds
    learning_curve.png  win share against CPU-hours, with 95% intervals
    checkpoints/        the two latest iterations: network, optimizer, replay window, pool
    tb/                 tensorboard scalars

``--resume RUN_DIR`` continues from the newest readable checkpoint and reaches the same
weights as a run never interrupted (every seed derives from ``--seed`` and the iteration).

CPU seconds in eval.csv are those of the play, labelling and learning: this process's and
its worker processes' (``getrusage``), and on Ray the CPU time each task reports;
evaluations are counted apart (``eval_cpu_seconds``).

This file reads top to bottom: the arguments (``Args``, the game's recipe filling those
left None), the loop (``main``), then what the loop calls, in order. The rest, one concern a
module:

    training/exit/recipes.py          the recipes: a game's EXIT_RECIPE over BASE_RECIPE
    training/exit/labelled_games.py   one game played and labelled by the search: a task
    training/exit/replay_window.py    the replay window of the samples, and learning from it
    training/exit/checkpoints.py      the run's counters and checkpoints, and resuming
    training/opponents.py             the opponents' mix (read as PPO reads it) and its draw
    training/parallel.py              the games in worker processes or Ray tasks
    training/run_files.py             run directories, config.json, atomic writes, checkpoints
    training/evaluation/learning_curve.py   learning_curve.png

Choices, and why (each game's recipe holds its own; measured on Factors and Multiples):

- Labels come from the learner's own positions (DAgger), not from the search's games: the
  network is corrected where it goes. A quarter of its decisions are labelled: neighbouring
  positions of a game say much the same, and the search is what an iteration costs (0.06
  CPU s a label, 0.7 a game of which 11 decisions are labelled).
- The window aggregates the labels of many iterations, as DAgger does: the plain search's
  labels do not age. Offline, on 9,000 labels, the network's agreement with the search's
  choice rose from 0.56 (1,000 labels to learn from) to 0.60 (7,500). Learning per
  iteration follows the new labels (``epochs``), not the window's size; 12 passes' worth
  beat 4 (a window of 20 iterations of 150 games, seed 2: 0.545 against 0.441 after 8
  iterations, 0.568 against 0.469 after 12; 400 deals each, +-0.05).
- ``--play searched`` and ``--play net`` trained equally well (0.538 and 0.515 against the
  heuristic after 12 iterations of 100 games, 200 deals each, +-0.07); searched moves keep
  the games nearer to strong play, so they are the default.
- ``--target visits`` and ``move`` taught the network the search's choice equally well
  (agreement 0.599 and 0.603 offline). Where a game's search lets paired games overrule its
  tree (verify, guard, root=paired), the move is the target: the tree's visits are what
  the check rejected.
- The first iteration's learner is the heuristic: a network of random weights reaches
  positions no sensible player does.
- Tahiti and Wasabi! distil their PPO policies first (``PPO_DISTILLED``). Tahiti stops
  there: the plain search's labels taught its networks little, and lowered a distilled one.
  Wasabi! goes on with the Gumbel root search guided by the network (soft targets, every
  decision labelled), which lifted the distilled network in every seed tried.

    python -m boardgame_envs.training.exit.train factors_multiples
    boardgame-envs train factors_multiples --algo exit
"""

from __future__ import annotations

import csv
import dataclasses
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np
import torch
from tqdm.auto import tqdm

from boardgame_envs.agents.ppo import describe_device, resolve_device
from boardgame_envs.agents.settings import reference_agent
from boardgame_envs.agents.specs import make_agent, split_agent_specs
from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.registry import make_rules
from boardgame_envs.training.cli_args import (
    parse_args,
)
from boardgame_envs.training.evaluation import learning_curve
from boardgame_envs.training.exit.checkpoints import (
    ALGO,
    RunState,
    cpu_seconds_used,
    load_iteration,
    optimizer_to,
    save_iteration,
    save_network,
)
from boardgame_envs.training.exit.labelled_games import (
    NET_PLACEHOLDER,
    GameTask,
    net_bytes,
    play_and_label,
    without_network,
    worker_agent,
)
from boardgame_envs.training.exit.options import Args
from boardgame_envs.training.exit.recipes import RECIPE_FIELDS, exit_recipe
from boardgame_envs.training.exit.replay_window import ReplayWindow, learn, make_block
from boardgame_envs.training.opponents import (
    PAST,
    SELF_PLAY,
    draw_opponent,
    opponent_shares,
    resolve_opponents,
)
from boardgame_envs.training.parallel import run_tasks
from boardgame_envs.training.run_files import (
    new_run_dir,
    read_config,
    write_atomically,
    write_config,
)

EVAL_SEED = 1_000_000_000  # evaluation deals; training deals are drawn below this


def with_recipe(args: Args) -> Args:
    """``args`` with every field left None taken from the game's recipe (its
    ``EXIT_RECIPE``: :func:`boardgame_envs.training.exit.recipes.exit_recipe`)."""
    recipe = exit_recipe(args.game)
    unset = {name: recipe[name] for name in RECIPE_FIELDS if getattr(args, name) is None}
    if "imitate" in unset:
        unset["imitate"] = policy_for_table(unset["imitate"], args.game, args.num_players)
    return dataclasses.replace(args, **unset)


def policy_for_table(teacher: str, game: str, num_players: int) -> str:
    """A recipe's teacher at ``num_players``: its shipped policy ``ppo:<game>`` becomes the
    one fine-tuned for that table size (``ppo:<game>@<n>p``) where one is shipped."""
    from boardgame_envs.agents.ppo import shipped_policy_for

    if teacher != f"ppo:{game}":
        return teacher
    return f"ppo:{shipped_policy_for(game, num_players) or game}"


# -- the loop ------------------------------------------------------------------------------
def main(args: Args) -> Path:
    from torch.utils.tensorboard import SummaryWriter

    args = _resumed_args(args) if args.resume else with_recipe(args)
    args = dataclasses.replace(args, opponent=resolve_opponents(args.opponent))
    make_rules(args.game).check_num_players(args.num_players)
    if args.torch_threads > 0:
        torch.set_num_threads(args.torch_threads)
    device = resolve_device(args.device)
    torch.manual_seed(args.seed)
    net = initial_network(args)
    args = dataclasses.replace(args, hint=net.hint)  # --init's network decides
    optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate)
    # Everything that can refuse the arguments runs before the run directory is made.
    check_agents(args, net_bytes(net))
    print(f"expert iteration on {args.game}, learning on {describe_device(device)}")
    run, window = RunState(), ReplayWindow(args.window)
    run_dir = _run_dir(args)
    checkpoint = load_iteration(run_dir, net, optimizer, args.window) if args.resume else None
    if checkpoint:
        run, window = checkpoint
    elif not args.resume:
        write_config(run_dir, {"args": asdict(args), "algo": ALGO})
    net.to(device)
    optimizer_to(optimizer, device)
    writer = SummaryWriter(log_dir=str(run_dir / "tb"))
    bar = tqdm(
        total=args.iterations * args.games_per_iteration,
        initial=run.iteration * args.games_per_iteration,
        unit="game",
        desc=f"exit {args.game}",
        disable=not args.progress,
    )
    warm_started = bool(args.init or args.imitation_games)
    try:
        if not checkpoint and args.imitation_games and not args.init:
            # Iteration 0, the warm start: checkpointed (a resumed run does not redo it) and
            # evaluated, the learning curve's first point.
            cpu_start, wall_start = cpu_seconds_used(), time.perf_counter()
            losses = imitate_teacher(net, optimizer, args, device)
            run.cpu_seconds += cpu_seconds_used() - cpu_start
            run.wall_seconds += time.perf_counter() - wall_start
            bar.write(
                f"warm start: the moves of {args.imitate} in {args.imitation_games} games, "
                f"policy loss {losses['policy_loss']:.3f}, after {run.cpu_seconds / 60:.1f} "
                "CPU-minutes"
            )
            net_path = save_network(run_dir, net, run)
            if args.eval_every or args.iterations == 0:
                for row in evaluate_and_log(run_dir, net_path, args, run, writer):
                    bar.write(f"warm start: {_eval_text(row)}")
            save_iteration(run_dir, net_path, net, optimizer, window, run)
        elif not checkpoint and args.init and (args.eval_every or args.iterations == 0):
            # Iteration 0 of a network given by --init: where its learning curve starts.
            net_path = save_network(run_dir, net, run)
            for row in evaluate_and_log(run_dir, net_path, args, run, writer):
                bar.write(f"start: {_eval_text(row)}")
            save_iteration(run_dir, net_path, net, optimizer, window, run)
        for iteration in range(run.iteration + 1, args.iterations + 1):
            cpu_start, wall_start = cpu_seconds_used(), time.perf_counter()
            # 1. Play and label: the iteration's games, in the workers.
            current = net_bytes(net) if iteration > 1 or warm_started else None
            tasks = iteration_tasks(args, run, iteration, current)
            games, task_cpu = [], 0.0
            for game in run_tasks(
                play_and_label, tasks, args.workers, args.backend, args.ray_address
            ):
                games.append(game)
                task_cpu += game["cpu_seconds"]
                bar.update()
            # 2. Learn: the new samples join the window, Adam draws from all of it.
            block = make_block(iteration, games)
            window.add(block)
            losses = learn(
                net,
                optimizer,
                window,
                len(block),
                epochs=args.epochs,
                batch_size=args.batch_size,
                value_weight=args.value_weight,
                seed=derived_seed(args.seed, iteration, "learn"),
                device=device,
            )
            if current is not None:
                run.pool = [*run.pool, (iteration - 1, current)][-args.pool_size :]
            run.iteration = iteration
            run.games += len(games)
            run.samples += len(block)
            run.cpu_seconds += cpu_seconds_used() - cpu_start
            if args.backend == "ray":  # Ray's workers are no child processes of this one
                run.cpu_seconds += task_cpu
            run.wall_seconds += time.perf_counter() - wall_start
            net_path = save_network(run_dir, net, run)
            figures = dict(
                losses,
                samples=len(block),
                window=len(window),
                learner_return=float(np.mean([g["learner_return"] for g in games])),
                cpu_hours=run.cpu_seconds / 3600,
            )
            for name, value in figures.items():
                writer.add_scalar(f"train/{name}", value, iteration)
            # 3. Evaluate, now and then; then the checkpoint that marks the iteration done.
            if iteration == args.iterations or (
                args.eval_every and iteration % args.eval_every == 0
            ):
                for row in evaluate_and_log(run_dir, net_path, args, run, writer):
                    bar.write(f"iteration {iteration}: {_eval_text(row)}")
            save_iteration(run_dir, net_path, net, optimizer, window, run)
            bar.set_postfix(
                policy_loss=f"{losses['policy_loss']:.3f}", value_loss=f"{losses['value_loss']:.3f}"
            )
    finally:
        bar.close()
        writer.close()
    print(f"saved {run_dir / 'net.pt'}")
    return run_dir


# -- what the loop calls, in order -----------------------------------------------------------
def _resumed_args(args: Args) -> Args:
    """The run's saved arguments; ``iterations`` may be raised (never lowered), and the
    workers, backend, Ray address, device and progress bar are this machine's choice."""
    saved = read_config(args.resume, "boardgame-envs train --algo exit")["args"]
    target = saved["iterations"]
    saved.setdefault("hint", "none")  # runs made before networks had hints
    saved.setdefault("value_mix", 0.0)  # runs made before the search gave root values
    saved.setdefault("eval_against", "")  # runs measured against the heuristic alone
    consensus = saved.pop("consensus", 1)  # an option since removed
    if consensus != 1:
        raise InvalidConfigError(
            f"{args.resume} was trained with --consensus {consensus}, an option no longer "
            "offered; allowed: a run made without it (--consensus 1, the old default)"
        )
    saved.update(
        resume=args.resume,
        iterations=target if args.iterations is None else max(args.iterations, target),
        workers=args.workers,
        backend=args.backend,
        ray_address=args.ray_address,
        device=args.device,
        progress=args.progress,
    )
    return Args(**saved)


def initial_network(args: Args):
    """A fresh network of the run's shape, or (``--init``) the one it starts from."""
    from boardgame_envs.agents.policy_value import PolicyValueNet, load_net

    if not args.init:
        return PolicyValueNet(
            args.game, args.num_players, hidden=args.hidden, layers=args.layers, hint=args.hint
        ).eval()
    net, _ = load_net(args.init, game=args.game)
    if net.num_players != args.num_players:
        raise InvalidConfigError(
            f"--init {args.init!r} is a network for {net.num_players} players, not "
            f"{args.num_players}; allowed: a network of {args.game} at {args.num_players} players"
        )
    return net


def check_agents(args: Args, current: bytes) -> None:
    """Build every agent the games will seat (``current``: the network's bytes), so a bad
    spec fails before the run starts."""
    from boardgame_envs.agents.search import ISMCTSAgent

    nets = {"current": current}
    if args.imitation_games and not args.init:
        _check_reproducible(make_agent(args.imitate, args.game), "--imitate", args.imitate)
    for spec, _ in opponent_shares(args.opponent):
        if spec not in (SELF_PLAY, PAST):
            _check_reproducible(make_agent(spec, args.game), "--opponent", spec)
    for spec in split_agent_specs(args.eval_against):
        _check_reproducible(make_agent(spec, args.game), "--eval-against", spec)
    search_specs = {args.search.replace(NET_PLACEHOLDER, "{current}")}
    if NET_PLACEHOLDER in args.search:
        search_specs.add(without_network(args.search))
    for spec in search_specs:
        search = worker_agent(spec, args.game, nets)
        if not isinstance(search, ISMCTSAgent):
            raise InvalidConfigError(
                f"--search {args.search!r} is not a search agent; allowed: ismcts[:options], "
                "ismcts-net:<network>[,options] or gumbel:<network>[,options] ({net}: the "
                "network being trained)"
            )
        _check_reproducible(search, "--search", args.search)


def _check_reproducible(agent, flag: str, spec: str) -> None:
    """Refuse a search with a time budget: its moves would depend on the machine's speed
    and load, and a run on its seed could not be repeated (nor resumed to the same net)."""
    seconds = getattr(getattr(agent, "options", None), "seconds", 0)
    if seconds:
        raise InvalidConfigError(
            f"{flag} {spec!r} searches for seconds={seconds:g} a decision, so its moves depend "
            "on the machine's speed; allowed: a budget of iterations alone, e.g. add "
            "seconds=0 (and iterations=N)"
        )


def _run_dir(args: Args) -> Path:
    """The run directory: ``--resume``'s, or a new one (``--run-name``, or
    ``<game>__exit__<seed>__<time>``), created."""
    if args.resume:
        return Path(args.resume)
    if args.run_name:
        run_dir = Path(args.out_dir) / args.run_name
        run_dir.mkdir(parents=True, exist_ok=True)
        return run_dir
    return new_run_dir(args.out_dir, args.game, ALGO, args.seed)


def imitate_teacher(net, optimizer, args: Args, device: str) -> dict:
    """The warm start: ``imitation_games`` games (deals of their own) of the teacher
    (``--imitate``) against heuristics, its decisions in one seat each (rotated) as targets
    (its move distribution where it gives one, else its move) and the outcome as values;
    ``learn`` then makes ``imitation_epochs`` passes over them. The teacher's moves are
    cheap labels, so the network starts near its play and the search's labels teach what
    it adds."""
    tasks = [
        GameTask(
            game=args.game,
            num_players=args.num_players,
            seed=derived_seed(args.seed, 0, "imitation", g) % EVAL_SEED,
            learner_seat=g % args.num_players,
            learner=args.imitate,
            opponents=(reference_agent(args.game),) * (args.num_players - 1),
            search=args.imitate,
            label_share=1.0,
            play="searched",
            target="visits",
            nets={},
            hint=args.hint,
        )
        for g in range(args.imitation_games)
    ]
    games = run_tasks(play_and_label, tasks, args.workers, args.backend, args.ray_address)
    window = ReplayWindow(1)
    block = make_block(0, games)
    window.add(block)
    return learn(
        net,
        optimizer,
        window,
        len(block),
        epochs=args.imitation_epochs,
        batch_size=args.batch_size,
        value_weight=args.value_weight,
        seed=derived_seed(args.seed, 0, "learn"),
        device=device,
    )


def iteration_tasks(args: Args, run: RunState, iteration: int, current: bytes | None) -> list:
    """The games of one iteration: deals, seats and opponents drawn from its own seed."""
    rng = np.random.default_rng(derived_seed(args.seed, iteration, "opponents"))
    mix = opponent_shares(args.opponent)
    pool = [i for i, _ in run.pool]
    pool_bytes = dict(run.pool)
    tasks = []
    for g in range(args.games_per_iteration):
        opponents = tuple(draw_opponent(mix, pool, rng) for _ in range(args.num_players - 1))
        if current is None:  # before any training the heuristic stands in for the network
            stand_in = reference_agent(args.game)
            opponents = tuple(
                stand_in if o == SELF_PLAY or o.startswith(PAST) else o for o in opponents
            )
        nets = {"current": current} if current is not None else {}
        for name in opponents:
            if name.startswith(f"{PAST}:"):
                nets[name] = pool_bytes[int(name.partition(":")[2])]
        tasks.append(
            GameTask(
                game=args.game,
                num_players=args.num_players,
                seed=derived_seed(args.seed, iteration, g) % EVAL_SEED,
                learner_seat=g % args.num_players,
                learner="net" if current is not None else reference_agent(args.game),
                opponents=opponents,
                search=args.search,
                label_share=args.label_share,
                play=args.play,
                target=args.target,
                nets=nets,
                hint=args.hint,
                value_mix=args.value_mix,
            )
        )
    return tasks


def derived_seed(seed: int, *parts: int | str) -> int:
    """A seed for one purpose of one iteration (``parts``), from the run's ``seed``."""
    words = [
        seed,
        *(p if isinstance(p, int) else int.from_bytes(p.encode(), "little") for p in parts),
    ]
    return int(np.random.SeedSequence(words).generate_state(1)[0])


# -- evaluation: the network against the heuristic, in eval.csv ----------------------------
EVAL_COLUMNS = (
    "iteration",
    "games",
    "samples",
    "opponent",
    "eval_games",
    "win_share",
    "ci95_low",
    "ci95_high",
    "cpu_seconds",
    "eval_cpu_seconds",
    "wall_seconds",
)


def evaluate_and_log(
    run_dir: Path, net_path: Path, args: Args, run: RunState, writer
) -> list[dict]:
    """Evaluate the iteration's network against each of :func:`eval_opponents`
    (:func:`evaluate_net`), count the CPU and wall seconds in ``run``, write their rows to
    eval.csv, redraw the learning curve and log the win shares to tensorboard (``writer``);
    the rows."""
    rows = []
    for opponent in eval_opponents(args):
        eval_cpu, eval_wall = cpu_seconds_used(), time.perf_counter()
        result = evaluate_net(net_path, args, opponent)
        run.eval_cpu_seconds += cpu_seconds_used() - eval_cpu
        run.wall_seconds += time.perf_counter() - eval_wall
        rows.append(eval_row(result, run, opponent))
        writer.add_scalar(f"eval/win_share_vs_{opponent}", result.win_share, run.iteration)
    write_eval_rows(run_dir / "eval.csv", rows)
    plot_learning_curve(run_dir, args.num_players)
    return rows


def eval_opponents(args: Args) -> list[str]:
    """Who the network is measured against: the heuristic (random play in a game without
    one), then ``--eval-against``'s agents."""
    return [reference_agent(args.game), *split_agent_specs(args.eval_against)]


def _eval_text(row: dict) -> str:
    return (
        f"{row['win_share']} against {row['opponent']} [{row['ci95_low']}, {row['ci95_high']}] "
        f"after {float(row['cpu_seconds']) / 60:.1f} CPU-minutes"
    )


def evaluate_net(net_path: Path, args: Args, opponent: str):
    """The network alone (its most likely move) against ``opponent`` in every other seat,
    seats rotated, over ``eval_games`` fresh deals: a ``PairingResult``."""
    from boardgame_envs.training.evaluation.tournament import run_tournament

    tournament = run_tournament(
        args.game,
        ["net", opponent],
        [args.num_players],
        args.eval_games,
        EVAL_SEED,
        progress=False,
        agents={"net": f"net:{net_path.resolve()}", opponent: opponent},
        workers=args.workers,
        backend=args.backend,
        ray_address=args.ray_address,
        lone="net",
    )
    return tournament.result("net", opponent, args.num_players)


def eval_row(result, run: RunState, opponent: str) -> dict:
    """A row of eval.csv: the evaluation's result and the run's figures when it was made."""
    low, high = result.ci95
    return dict(
        iteration=run.iteration,
        games=run.games,
        samples=run.samples,
        opponent=opponent,
        eval_games=result.games,
        win_share=f"{result.win_share:.4f}",
        ci95_low=f"{low:.4f}",
        ci95_high=f"{high:.4f}",
        cpu_seconds=f"{run.cpu_seconds:.3f}",
        eval_cpu_seconds=f"{run.eval_cpu_seconds:.3f}",
        wall_seconds=f"{run.wall_seconds:.3f}",
    )


def write_eval_rows(path: Path, new_rows: list[dict]) -> None:
    """eval.csv with ``new_rows`` (one evaluation's) appended, rows of their iteration or
    later dropped first (a run resumed after an evaluation but before its checkpoint
    evaluates again)."""
    iteration = new_rows[0]["iteration"]
    rows = list(csv.DictReader(path.open())) if path.exists() else []
    rows = [r for r in rows if int(r["iteration"]) < iteration] + new_rows

    def write(temp: str) -> None:
        with open(temp, "w", newline="") as handle:
            writer = csv.DictWriter(handle, EVAL_COLUMNS)
            writer.writeheader()
            writer.writerows(rows)

    write_atomically(path, write)


def plot_learning_curve(run_dir: Path, num_players: int = 2) -> Path:
    """learning_curve.png: win share against the heuristic (95% interval) by CPU-hours."""
    return learning_curve.plot_learning_curve(
        run_dir,
        x="cpu_seconds",
        x_scale=1 / 3600,
        x_label="CPU-hours (play, search, learning)",
        fair_share=1 / num_players,
    )


if __name__ == "__main__":
    main(parse_args(Args))
