"""Analyse one position: load or build it, print it, list the moves, ask two agents.

What it shows: the rules engine without an env. A position is a ``State``; its snapshot
is JSON (``state.to_json()``, read back with ``rules.from_json``: every field checked, a
bad one named in ``InvalidStateError``). The script builds a position by letting the
heuristic play a seeded game for a while (or loads your snapshot), saves and reloads it,
prints what the seat to move sees, lists the legal moves in words, and asks the heuristic
and the search agent (ISMCTS) for their move; the search also shows, per move, how often
it tried it and its mean result for the mover (from -1, a sure loss, to +1, a sure win).
The search runs a fixed number of iterations (``seconds=0``: no time limit), so its answer
is the same on every machine.

    python examples/analyse_position.py                           # Factors and Multiples
    python examples/analyse_position.py wasabi --moves 30 --save position.json
    python examples/analyse_position.py --snapshot position.json  # your own position
    python examples/analyse_position.py --quick                   # a smaller search
"""

import argparse
from pathlib import Path

from boardgame_envs import make_rules
from boardgame_envs.agents import make_agent


def build_position(game: str, players: int, seed: int, moves: int):
    """The position after the heuristic has played ``moves`` moves of deal ``seed``, then on
    to the next decision with three or more legal moves (or the end of the game)."""
    rules = make_rules(game)
    state = rules.new_state(num_players=players, seed=seed)
    heuristic = make_agent("heuristic", game, seed=seed)
    played = 0
    while not state.is_terminal() and (played < moves or len(state.legal_actions()) < 3):
        state.apply(heuristic.act(state.view(state.current_player)))  # its own view only
        played += 1
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="factors_multiples", help="boardgame-envs list")
    parser.add_argument("--snapshot", help="a JSON snapshot (state.to_json()) to analyse")
    parser.add_argument("--num-players", type=int, default=2, help="seats (when building)")
    parser.add_argument("--seed", type=int, default=3, help="deal of the built position")
    parser.add_argument("--moves", type=int, default=20, help="moves played before it")
    parser.add_argument("--iterations", type=int, default=2000, help="search iterations")
    parser.add_argument("--save", help="write the position's snapshot to this file")
    parser.add_argument("--quick", action="store_true", help="200 search iterations")
    args = parser.parse_args()
    iterations = 200 if args.quick else args.iterations

    rules = make_rules(args.game)
    if args.snapshot:
        state = rules.from_json(Path(args.snapshot).read_text())
    else:
        state = build_position(args.game, args.num_players, args.seed, args.moves)
    snapshot = state.to_json()  # a full, lossless copy, hidden cards and all
    state = rules.from_json(snapshot)  # validated on the way in
    if args.save:
        Path(args.save).write_text(snapshot)
        print(f"saved the snapshot to {args.save} ({len(snapshot):,} characters)")
    if state.is_terminal():
        print(f"the game is over: scores {state.scores()}, winners {state.winners()}")
        return

    seat = state.current_player
    view = state.view(seat)  # what seat `seat` may know, and nothing more: agents get this
    print(state.render_text(seat=seat))  # the same, for people
    legal = view.legal_actions()
    print(f"\nseat {seat} to move, {len(legal)} legal moves:")
    for action in legal:
        print(f"  {action:4d}  {state.describe_action(action)}")

    heuristic = make_agent("heuristic", args.game, seed=0)
    move = heuristic.act(view)
    print(f"\nheuristic: {move} ({state.describe_action(move)})")

    # ismcts with seconds=0 stops at the iteration count alone; with a time limit (the
    # default, 0.25 s) a faster machine would search more and might answer differently.
    search = make_agent(f"ismcts:seconds=0,iterations={iterations}", args.game, seed=0)
    move = search.act(view)
    print(f"ismcts ({search.last_iterations} iterations): {move} ({state.describe_action(move)})")
    if search.last_root is not None:  # the search tree's root: one node per move tried
        nodes = sorted(search.last_root.children.items(), key=lambda kv: -kv[1].visits)
        for action, node in nodes:
            print(
                f"  {action:4d}  {state.describe_action(action):32s}  visits {node.visits:5d}"
                f"  mean result {node.total / max(node.visits, 1):+.3f}"
            )
        if nodes[0][0] != move:  # Carcassonne, Tahiti, Wasabi!: the guard and verify options
            print("  (the tree's favourite did not pass the checks against the heuristic's move)")
    elif search.last_advantages:  # settings that score each move against the heuristic's
        for action, gain in sorted(search.last_advantages.items(), key=lambda kv: -kv[1]):
            print(
                f"  {action:4d}  {state.describe_action(action):32s}  "
                f"advantage over the heuristic's move {gain:+.3f}"
            )


if __name__ == "__main__":
    main()
