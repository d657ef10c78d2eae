"""What the search's labels can teach a hinted network: how often the search departs from
the heuristic, whether a second search repeats the departure, and whether a network
predicts it.

A hinted network (``--hint heuristic``) starts as the heuristic, so all it can learn from
expert iteration is where the search departs from the heuristic's move, and to what. This
study measures that signal:

* ``--game`` with ``--search``: at positions of heuristic-against-heuristic games (a share
  ``--share`` of the decisions with two or more legal moves, deals from ``--seed``), two
  searches seeded apart decide from the same view. It prints how often each departs from
  the heuristic and, where the first departs, how often the second makes the same move (a
  departure the search itself does not repeat is noise to the network). Moves that leave
  the same position (a symmetric tile's rotations) count as the same move.
* ``--run``: an expert-iteration run directory. Its newest checkpoint's replay window ends
  with the labels of the last iteration, which the previous iteration's network has never
  learned from; it prints how often that network plays the search's labelled move, overall
  and where the label departs from the heuristic.

    python scripts/label_study.py tahiti --search "ismcts:seconds=0" --positions 400
    python scripts/label_study.py --run runs/cornucopia__exit__3__...
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from boardgame_envs.agents.gumbel import equivalent_moves
from boardgame_envs.agents.specs import make_agent
from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.registry import make_rules
from boardgame_envs.training.cli_args import Allowed, at_least, check_fields, parse_args

HEURISTIC = "heuristic"
SHARE = Allowed(
    lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and 0 < v <= 1,
    "a number above 0, at most 1",
)


@dataclass
class Args:
    game: str = ""
    """game id: study the search's departures from the heuristic in this game"""
    search: str = "ismcts:seconds=0"
    """the search agent's spec (as for eval)"""
    positions: int = 400
    """positions to search twice"""
    share: float = 0.15
    """share of the heuristic games' decisions searched (spreads the positions over games)"""
    seed: int = 7_000_000_000
    """deal seed of the first heuristic game; game g is dealt from seed + g"""
    run: str = ""
    """an expert-iteration run directory: its previous network against its last labels"""

    def __post_init__(self) -> None:
        check_fields(self, {"positions": at_least(1), "share": SHARE, "seed": at_least(0)})
        if not self.game and not self.run:
            raise InvalidConfigError(
                "give the game (and --search) or --run; allowed: either or both"
            )


@dataclass
class Repeatability:
    positions: int
    games: int
    departs: float
    """share of positions where the first search's move is not the heuristic's"""
    second_departs: float
    repeated: float
    """where the first departs: share where the second search makes the same move"""
    second_plays_heuristic: float
    """where the first departs: share where the second search plays the heuristic's move"""


def search_repeatability(
    game: str, search: str, positions: int, seed: int, share: float = 0.15
) -> Repeatability:
    """Two searches, seeded apart, at the same positions of heuristic games."""
    rules = make_rules(game)
    heuristic = make_agent(HEURISTIC, game, seed=seed)
    first, second = make_agent(search, game, seed=seed + 1), make_agent(search, game, seed=seed + 2)
    sampler = np.random.default_rng(seed)
    moves: list[tuple[int, int, int]] = []
    games = 0
    while len(moves) < positions:
        state = rules.new_state(2, seed=seed + games)
        heuristic.reset(seed + games)
        first.reset(2 * (seed + games))
        second.reset(2 * (seed + games) + 1)
        games += 1
        while not state.is_terminal() and len(moves) < positions:
            view = state.view(state.current_player)
            move = heuristic.act(view)
            legal = view.legal_actions()
            if len(legal) > 1 and sampler.random() < share:
                same = _same_move(state, legal, state.current_player)
                moves.append((same[move], same[first.act(view)], same[second.act(view)]))
            state.apply(move)
    heuristic_move, one, two = np.array(moves).T
    departed = one != heuristic_move
    return Repeatability(
        positions=len(moves),
        games=games,
        departs=float(departed.mean()),
        second_departs=float((two != heuristic_move).mean()),
        repeated=_share(two[departed] == one[departed]),
        second_plays_heuristic=_share(two[departed] == heuristic_move[departed]),
    )


@dataclass
class HeldOutAgreement:
    iteration: int
    labels: int
    departures: float
    """share of the labels that depart from the heuristic's move"""
    agrees: float
    """share of the labels the network plays"""
    agrees_on_departures: float
    plays_heuristic_on_departures: float


def held_out_agreement(run_dir: str | Path) -> HeldOutAgreement:
    """The previous iteration's network against the last iteration's labels of the run's
    newest checkpoint (labels it has never learned from)."""
    import torch

    from boardgame_envs.agents.policy_value import load_net
    from boardgame_envs.training.exit.replay_window import ReplayWindow

    folder = Path(run_dir) / "checkpoints"
    replays = sorted(folder.glob("replay_*.npz"))
    if not replays:
        raise InvalidConfigError(f"{folder} holds no replay_*.npz; allowed: a run directory")
    with np.load(replays[-1]) as arrays:
        window = ReplayWindow.from_arrays(int(arrays["iterations"].size), arrays)
    last = window.blocks[-1]
    previous = folder / f"net_{last.iteration - 1:010d}.pt"
    if not previous.exists():
        raise InvalidConfigError(f"{previous} is missing: the run keeps the two latest networks")
    net, _ = load_net(previous)
    if not net.hinted:
        raise InvalidConfigError(f"{previous} has no hint; allowed: a hinted network's run")
    obs = last.obs[np.arange(len(last))]
    with torch.no_grad():
        logits, _ = net(torch.as_tensor(obs), torch.as_tensor(last.mask))
    played = logits.argmax(dim=1).numpy()
    rows = np.arange(len(last))
    label = last.policy.argmax(axis=1)
    hint = obs[:, -last.mask.shape[1] :].argmax(axis=1)  # the hint's one-hot ends the input

    def is_label(moves: np.ndarray) -> np.ndarray:
        return np.isclose(last.policy[rows, moves], last.policy[rows, label])

    departs = ~is_label(hint)
    plays_label = is_label(played)
    return HeldOutAgreement(
        iteration=last.iteration,
        labels=len(last),
        departures=float(departs.mean()),
        agrees=float(plays_label.mean()),
        agrees_on_departures=_share(plays_label[departs]),
        plays_heuristic_on_departures=_share(played[departs] == hint[departs]),
    )


def _same_move(state, legal: list[int], seat: int) -> dict[int, int]:
    """Each legal move -> the first move of its group of moves that leave the same position."""
    return {move: group[0] for group in equivalent_moves(state, legal, seat) for move in group}


def _share(hits: np.ndarray) -> float:
    return float(hits.mean()) if hits.size else float("nan")


def main(args: Args) -> None:
    if args.game:
        r = search_repeatability(args.game, args.search, args.positions, args.seed, args.share)
        print(
            f"{args.game}, {args.search}: {r.positions} positions of {r.games} heuristic games "
            f"(seeds {args.seed:,} +)\n"
            f"  departs from the heuristic: {r.departs:.3f} "
            f"(second search {r.second_departs:.3f})\n"
            f"  where the first departs, the second makes the same move {r.repeated:.3f}, "
            f"the heuristic's {r.second_plays_heuristic:.3f}"
        )
    if args.run:
        a = held_out_agreement(args.run)
        print(
            f"{args.run}: network {a.iteration - 1} on the {a.labels:,} labels of iteration "
            f"{a.iteration}\n"
            f"  labels departing from the heuristic: {a.departures:.3f}\n"
            f"  the network plays the label: {a.agrees:.3f}; "
            f"on departures {a.agrees_on_departures:.3f} "
            f"(plays the heuristic's move {a.plays_heuristic_on_departures:.3f})"
        )


if __name__ == "__main__":
    main(parse_args(Args))
