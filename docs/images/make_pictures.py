"""Remake the picture at the top of each game page: ``python docs/images/make_pictures.py``.

Each picture is the game's own ``rgb_array`` render (``state.render_rgb()``) of a game in
progress: a seeded game, played by the heuristic agent for a number of decisions, then saved
as ``docs/images/<game>.png`` (an indexed PNG, written by the library's own PNG writer).
"""

from __future__ import annotations

from pathlib import Path

import boardgame_envs
from boardgame_envs.agents import make_agent
from boardgame_envs.core.image import png_bytes

HERE = Path(__file__).resolve().parent
#: game: (players, seed, decisions played before the picture)
SETTINGS = {
    "carcassonne_castle": (2, 7, 60),
    "cornucopia": (3, 7, 60),
    "factors_multiples": (3, 7, 20),
    "tahiti": (3, 7, 90),
    "wasabi": (2, 7, 150),
}


def picture(game: str, players: int, seed: int, decisions: int):
    """The render of a heuristic game of ``game`` after ``decisions`` decisions."""
    rules = boardgame_envs.make_rules(game)
    state = rules.new_state(players, seed=seed)
    agents = [make_agent("heuristic", game, seed=seed + seat) for seat in range(players)]
    for _ in range(decisions):
        if state.is_terminal():
            break
        seat = state.current_player
        state.apply(agents[seat].act(state.view(seat)))
    return state.render_rgb()


def main() -> None:
    for game, (players, seed, decisions) in SETTINGS.items():
        path = HERE / f"{game}.png"
        path.write_bytes(png_bytes(picture(game, players, seed, decisions), palette=True))
        print(f"{path.relative_to(HERE.parents[1])}: {path.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
