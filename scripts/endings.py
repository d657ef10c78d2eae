"""Agents compared on the same endings: the last turns of games the heuristic has played.

Game g is dealt from ``seed + g`` and played by the heuristic in every seat (``before`` in
seat ``g % n``) until at most ``turns_left`` turns are left (where the game counts them:
Carcassonne's stack). From that one position each agent finishes the game in seat
``g % n``, heuristics in the others. The games are the same up to the ending, so the paired
difference of two agents' results measures what they do in the ending alone, with far less
noise than whole games: this is how the search's ``late`` option was tuned
(docs/design-notes.md).

    python scripts/endings.py carcassonne_castle --turns-left 16 --games 120
        \\ --seed 10000000 --agents "heuristic,ismcts:seconds=0,late=0,ismcts:seconds=0"
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from tqdm.auto import tqdm

from boardgame_envs.agents.settings import game_settings
from boardgame_envs.agents.specs import make_agent, split_agent_specs
from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.registry import GAMES, make_rules
from boardgame_envs.training.cli_args import at_least, check_fields, parse_args
from boardgame_envs.training.evaluation.tournament import wilson_interval
from boardgame_envs.training.parallel import run_tasks


@dataclass
class Args:
    game: str = "carcassonne_castle"
    """a game that counts its turns left (carcassonne_castle)"""
    agents: str = "heuristic,ismcts:seconds=0"
    """comma-separated agents to finish each ending; the first is the baseline of the
    paired differences"""
    turns_left: int = 16
    """the heuristic plays every seat until at most this many turns are left"""
    before: str = "heuristic"
    """the agent in the compared seat before the ending (the positions then are those it
    reaches against the heuristic)"""
    games: int = 100
    """endings per agent"""
    num_players: int = 2
    """players at the table"""
    seed: int = 0
    """seed of game 0; game g uses seed + g"""
    workers: int = 1
    """processes that play the endings in parallel (the results are the same)"""
    progress: bool = True
    """show a progress bar (on stderr)"""

    def __post_init__(self) -> None:
        check_fields(self, ALLOWED)
        if game_settings(self.game).turns_left is None:
            counting = [game for game in GAMES if game_settings(game).turns_left is not None]
            raise InvalidConfigError(
                f"the game {self.game!r} does not count its turns left; allowed: "
                f"{', '.join(counting)}"
            )
        make_rules(self.game).check_num_players(self.num_players)


ALLOWED = {
    "turns_left": at_least(1),
    "games": at_least(1),
    "num_players": at_least(2),
    "seed": at_least(0),
    "workers": at_least(1),
}


@dataclass(frozen=True)
class Ending:
    """One agent's finish of one ending, from its seat."""

    win: float  # 1 a win, 1/k a k-way shared win, 0 a loss
    margin: float  # its score minus the best other seat's
    decisions: int  # its decisions with two or more legal actions
    seconds: float  # the time they took


def play_endings(task: tuple) -> list[Ending]:
    """Task ``(game, specs, before, turns_left, num_players, seed, seat)``: the ending of the
    game dealt from ``seed`` (``before`` at ``seat`` until then), finished by each agent of
    ``specs`` in turn at ``seat``."""
    game, specs, before, turns_left, num_players, seed, seat = task
    rules = make_rules(game)
    left = game_settings(game).turns_left
    state = rules.new_state(num_players, seed=seed)
    players = [_seated("heuristic", game, seed * 7919 + s) for s in range(num_players)]
    players[seat] = _seated(before, game, seed * 7919 + seat)
    while not state.is_terminal() and left(state) > turns_left:
        state.apply(players[state.current_player].act(state.view(state.current_player)))
    return [_finish(state.clone(), game, spec, seat, seed) for spec in specs]


def _finish(state, game: str, spec: str, seat: int, seed: int) -> Ending:
    table = [_seated("heuristic", game, seed * 31 + s) for s in range(state.num_players)]
    table[seat] = _seated(spec, game, seed * 31 + seat)
    decisions, seconds = 0, 0.0
    while not state.is_terminal():
        player = state.current_player
        started = time.perf_counter()
        action = table[player].act(state.view(player))
        if player == seat and len(state.legal_actions()) > 1:
            decisions += 1
            seconds += time.perf_counter() - started
        state.apply(action)
    winners, scores = state.winners(), state.scores()
    best_other = max(s for i, s in enumerate(scores) if i != seat)
    win = 1 / len(winners) if seat in winners else 0.0
    return Ending(win, scores[seat] - best_other, decisions, seconds)


def _seated(spec: str, game: str, seed: int):
    agent = make_agent(spec, game)
    agent.reset(seed)
    return agent


def _mean_and_error(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def report(specs: list[str], results: list[list[Ending]]) -> str:
    """A markdown table: per agent its win share (Wilson 95%), mean margin, and both paired
    against the first agent (mean difference ± standard error), with seconds a decision."""
    lines = [
        "| agent | endings | win share | 95% CI | margin | win share − first's | "
        "margin − first's | s/decision |",
        "|---|---:|---:|---|---:|---:|---:|---:|",
    ]
    for i, spec in enumerate(specs):
        mine = [game[i] for game in results]
        wins = sum(e.win for e in mine)
        low, high = wilson_interval(wins, len(mine))
        win_gain = _mean_and_error([e.win - game[0].win for e, game in zip(mine, results)])
        margin_gain = _mean_and_error([e.margin - game[0].margin for e, game in zip(mine, results)])
        margin = sum(e.margin for e in mine) / len(mine)
        per_decision = sum(e.seconds for e in mine) / max(1, sum(e.decisions for e in mine))
        lines.append(
            f"| `{spec}` | {len(mine)} | {wins / len(mine):.3f} | [{low:.3f}, {high:.3f}] | "
            f"{margin:+.2f} | {win_gain[0]:+.3f} ± {win_gain[1]:.3f} | "
            f"{margin_gain[0]:+.2f} ± {margin_gain[1]:.2f} | {per_decision:.3f} |"
        )
    return "\n".join(lines)


def main(args: Args) -> list[list[Ending]]:
    specs = split_agent_specs(args.agents)
    for spec in [args.before, *specs]:  # a bad spec fails here, before any game is played
        make_agent(spec, args.game)
    n = args.num_players
    tasks = [
        (args.game, specs, args.before, args.turns_left, args.num_players, args.seed + g, g % n)
        for g in range(args.games)
    ]
    results = list(
        tqdm(
            run_tasks(play_endings, tasks, args.workers),
            total=len(tasks),
            disable=not args.progress,
            desc=f"endings {args.game}",
            unit="ending",
        )
    )
    print(
        f"{args.game}: {args.games} endings from at most {args.turns_left} turns left "
        f"(seeds {args.seed} +, {args.before} before)"
    )
    print(report(specs, results))
    return results


if __name__ == "__main__":
    main(parse_args(Args))
