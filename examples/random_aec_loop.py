"""Random legal play through the PettingZoo AEC loop, with action masks.

What it shows: creating an env (``boardgame_envs.make``, or ``pettingzoo.make`` with the
registered id), the ``agent_iter`` / ``last`` / ``step`` loop every PettingZoo AEC env
uses, choosing among the legal actions from ``observation["action_mask"]``, summing each
seat's rewards, and reaching the rules engine behind the env (``env.unwrapped.state``) to
describe a move in words.

    python examples/random_aec_loop.py                 # 200 games of Factors and Multiples
    python examples/random_aec_loop.py wasabi --num-players 3 --games 50
    python examples/random_aec_loop.py --quick         # 3 games
"""

import argparse

import numpy as np

import boardgame_envs  # importing it registers the games with PettingZoo and Gymnasium


def play_one_game(env, seed: int, rng: np.random.Generator, show_moves: int = 0) -> dict:
    """One game of uniformly random legal moves; returns each agent's total reward.
    The first ``show_moves`` moves are printed in words."""
    env.reset(seed=seed)
    totals = {agent: 0.0 for agent in env.agents}
    for step, agent in enumerate(env.agent_iter()):
        # `reward` is what this agent got since its last turn: with the default
        # reward="outcome" it is 0 until the game ends, then +1 / -1 (0 for a draw).
        observation, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        if termination or truncation:
            action = None  # a finished agent steps with None until the env removes it
        else:
            legal = np.flatnonzero(observation["action_mask"])  # 1 marks a legal action
            action = int(rng.choice(legal))
            if step < show_moves:
                words = env.unwrapped.state.describe_action(action)  # the rules engine
                print(f"  {agent}: action {action:3d} = {words}  ({len(legal)} legal)")
        env.step(action)
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="factors_multiples", help="boardgame-envs list")
    parser.add_argument("--num-players", type=int, default=2, help="number of seats")
    parser.add_argument("--games", type=int, default=200, help="games to play")
    parser.add_argument("--seed", type=int, default=0, help="seed of game 0 (game g: seed + g)")
    parser.add_argument("--quick", action="store_true", help="3 games only")
    args = parser.parse_args()
    games = 3 if args.quick else args.games

    env = boardgame_envs.make(args.game, num_players=args.num_players)
    # The same env by its registered, versioned id (boardgame-envs list prints them all):
    #   pettingzoo.make("aec", "boardgame_envs/factors_multiples-v1", num_players=2)
    env_id = boardgame_envs.game_info(args.game).pettingzoo_id
    space = env.observation_space("player_0")
    print(
        f"{env_id}: agents {env.possible_agents}, {env.action_space('player_0').n} actions, "
        f"observation {space['observation'].shape}, action_mask {space['action_mask'].shape}"
    )

    rng = np.random.default_rng(args.seed)
    print("game 0, the first moves:")
    rows = []
    for g in range(games):
        totals = play_one_game(env, seed=args.seed + g, rng=rng, show_moves=8 if g == 0 else 0)
        rows.append([totals[agent] for agent in env.possible_agents])
        if g < 5:
            print(f"game {g}: rewards " + ", ".join(f"{r:+.2f}" for r in rows[-1]))
    rows = np.array(rows)
    means = ", ".join(f"{a} {r:+.3f}" for a, r in zip(env.possible_agents, rows.mean(axis=0)))
    print(f"mean reward per seat over {games} games: {means}")
    print(f"zero-sum in every game: {bool(np.allclose(rows.sum(axis=1), 0))}")
    env.close()


if __name__ == "__main__":
    main()
