"""SingleAgentEnv: one learning seat in a Gymnasium env; the other seats are agents.

==================  ===================================================================
Observation space   ``Box(float32, rules.observation_shape)``: the learner's observation;
                    with ``observe_mask=True`` the legal-action mask (0/1) is appended, so
                    the policy network sees which actions are legal, not only its logits
Layout              ``layout="flat"`` (default): as above. ``"planes"`` (games with
                    ``rules.planes_shape``: Carcassonne, Tahiti, Wasabi):
                    ``Dict(planes=Box(float32, (C, H, W)), vector=Box(float32, (V,)))``,
                    the same values split (planes first); ``observe_mask=True`` appends
                    the mask to ``vector`` (``V + action_size``)
Action space        ``Discrete(rules.action_size)``; ``action_masks()`` gives the legal
                    ones (sb3-contrib's MaskablePPO reads it)
Opponents           an agent (an object with ``act(view)``), anything with
                    ``sample(rng) -> agent`` (a mix, a pool of snapshots), or a function
                    ``view -> action``; seated anew at every reset, they move inside
                    ``step()``. Names ("heuristic", "ppo:<path>") are resolved outside the
                    core: ``boardgame_envs.make_single_agent`` and ``gymnasium.make``
                    accept them
Learner seat        drawn at random at every reset unless ``learner_seat`` is fixed
Reward              the learner's reward under the AEC env's ``reward`` mode, summed over
                    everything that happened since its last decision (so it sees the -1
                    when an opponent ends the game)
==================  ===================================================================

Single-option decisions are applied automatically by default (``auto_resolve=True``), so
the learner only ever sees real choices. An illegal action, by default
(``illegal_action="lose"``), ends the episode with reward -1 and the error text in
``info["illegal_action"]``, as PettingZoo's classic games do; ``illegal_action="raise"``
raises ``IllegalActionError`` instead and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np

from boardgame_envs.core.env import (
    TurnBasedEnv,
    agent_name,
    check_flag,
    check_keywords,
    keyword_names,
    split_planes,
)
from boardgame_envs.core.rules import (
    IllegalActionError,
    InvalidConfigError,
    PlayerView,
    Rules,
    as_action,
    check_seed,
    is_integer,
)

ILLEGAL_ACTION_MODES = ("lose", "raise")


class SingleAgentEnv(gymnasium.Env):
    """Gymnasium view of a multi-player game: one seat learns, agents fill the rest."""

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(
        self,
        rules: Rules,
        num_players: int = 2,
        opponent: Any = None,
        learner_seat: int | None = None,
        reward: str = "outcome",
        auto_resolve: bool = True,
        illegal_action: str = "lose",
        observe_mask: bool = False,
        render_mode: str | None = None,
        layout: str = "flat",
        **options: Any,
    ) -> None:
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise InvalidConfigError(
                f"illegal_action={illegal_action!r} is not allowed; allowed: "
                f"{', '.join(ILLEGAL_ACTION_MODES)}"
            )
        self.illegal_action = illegal_action
        check_flag("observe_mask", observe_mask)
        keywords = keyword_names(SingleAgentEnv.__init__, TurnBasedEnv.__init__)
        check_keywords(rules, options, keywords, rules.name)
        self._lost_by_illegal_action = False
        self.game = TurnBasedEnv(
            rules,
            num_players,
            render_mode=render_mode,
            reward=reward,
            auto_resolve=auto_resolve,
            layout=layout,  # checked there (a game without planes takes "flat" only)
            **options,
        )
        self.rules = rules
        self.num_players = self.game.num_players
        if learner_seat is not None and (
            not is_integer(learner_seat) or learner_seat not in range(self.num_players)
        ):
            raise InvalidConfigError(
                f"learner_seat={learner_seat!r} is not allowed; allowed: "
                f"0 to {self.num_players - 1} or None (random each episode)"
            )
        self.fixed_seat = None if learner_seat is None else int(learner_seat)
        self.opponent = as_opponent(opponent)
        self.render_mode = render_mode
        self.metadata = {"render_modes": self.game.metadata["render_modes"], "render_fps": 1}
        self.observe_mask = bool(observe_mask)
        self.layout = self.game.layout
        #: (C, H, W) under ``layout="planes"``, else None (observations are flat).
        self.planes_shape = self.game.planes_shape
        self.observation_space = (
            observation_space(rules, observe_mask)
            if self.planes_shape is None
            else planes_observation_space(rules, observe_mask)
        )
        self.action_space = self.game.action_spaces["player_0"]
        self.learner_seat = 0
        self.opponents: dict[int, Any] = {}

    @property
    def state(self):
        return self.game.state

    def reset(
        self, *, seed: int | None = None, options: dict | None = None
    ) -> tuple[np.ndarray | dict[str, np.ndarray], dict]:
        if seed is not None and not (isinstance(seed, int) and seed >= 0):
            # the library's words, not Gymnasium's; a numpy integer seeds as its int does
            try:
                seed = check_seed(seed)
            except InvalidConfigError:
                raise InvalidConfigError(
                    f"reset(seed={seed!r}) is not allowed; allowed: None or an int >= 0"
                ) from None
        super().reset(seed=seed)
        rng = self.np_random
        self.game.reset(seed=int(rng.integers(2**63)))
        self._lost_by_illegal_action = False
        self.learner_seat = (
            self.fixed_seat if self.fixed_seat is not None else int(rng.integers(self.num_players))
        )
        self.opponents = {}
        for seat in range(self.num_players):
            if seat != self.learner_seat:
                agent = self.opponent.sample(rng)
                agent.reset(int(rng.integers(2**63)))
                self.opponents[seat] = agent
        reward = self._play_opponents()  # they may decide before the learner's first turn
        obs, info = self._observation(), self._info()
        info["reward_before_first_turn"] = reward
        return obs, info

    def step(
        self, action: int
    ) -> tuple[np.ndarray | dict[str, np.ndarray], float, bool, bool, dict]:
        learner = agent_name(self.learner_seat)
        if self.game.agent_selection != learner or self._done():
            raise RuntimeError("step() called when the episode is over; call reset()")
        try:
            self.game.step(as_action(action, self.rules.action_size))
        except IllegalActionError as error:
            if self.illegal_action == "raise":
                raise
            self._lost_by_illegal_action = True
            info = {**self._info(), "illegal_action": str(error)}
            return self._observation(), -1.0, True, False, info
        reward = self.game._cumulative_rewards[learner]
        reward += self._play_opponents()
        terminated = self.game.terminations[learner]
        truncated = self.game.truncations[learner] and not terminated
        return self._observation(), float(reward), terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner now (all False once the episode is over)."""
        if self._done():
            return np.zeros(self.rules.action_size, dtype=bool)
        return self.state.view(self.learner_seat).legal_action_mask()

    def render(self) -> str | None:
        return self.game.render()

    # -- helpers --------------------------------------------------------------------------
    def _done(self) -> bool:
        learner = agent_name(self.learner_seat)
        return (
            self._lost_by_illegal_action
            or self.game.terminations[learner]
            or self.game.truncations[learner]
        )

    def _play_opponents(self) -> float:
        """Opponents act until the learner must decide or the game ends; the learner's
        reward over that stretch."""
        learner = agent_name(self.learner_seat)
        reward = 0.0
        while not self._done() and self.game.agent_selection != learner:
            seat = self.state.current_player
            self.game.step(self.opponents[seat].act(self.state.view(seat)))
            reward += self.game.rewards[learner]
        return reward

    def _observation(self) -> np.ndarray | dict[str, np.ndarray]:
        view = self.state.view(self.learner_seat)
        if self.planes_shape is None:
            return observe(view, self.observe_mask)
        return observe_planes(view, self.observe_mask, self.planes_shape)

    def _info(self) -> dict:
        return {"learner_seat": self.learner_seat}


def observation_space(rules: Rules, observe_mask: bool) -> gymnasium.spaces.Box:
    low, high = rules.observation_bounds
    (size,) = rules.observation_shape
    if observe_mask:
        size += rules.action_size
    return gymnasium.spaces.Box(min(low, 0.0), max(high, 1.0), (size,), np.float32)


def planes_observation_space(rules: Rules, observe_mask: bool) -> gymnasium.spaces.Dict:
    """The space of :func:`observe_planes` (``layout="planes"``): ``planes`` and ``vector``
    within the rules' bounds; with the mask appended, ``vector`` is widened to [0, 1] as
    the flat space is."""
    planes_shape = rules.planes_shape
    if planes_shape is None:
        raise InvalidConfigError(f"{rules.name} has no spatial planes; allowed layout: 'flat'")
    low, high = rules.observation_bounds
    (size,) = rules.observation_shape
    size -= int(np.prod(planes_shape))
    vector_low, vector_high = low, high
    if observe_mask:
        size += rules.action_size
        vector_low, vector_high = min(low, 0.0), max(high, 1.0)
    return gymnasium.spaces.Dict(
        {
            "planes": gymnasium.spaces.Box(low, high, planes_shape, np.float32),
            "vector": gymnasium.spaces.Box(vector_low, vector_high, (size,), np.float32),
        }
    )


def observe(view, observe_mask: bool) -> np.ndarray:
    """A seat's policy input (``layout="flat"``): its observation, with its legal-action
    mask appended when ``observe_mask``."""
    observation = view.observation()
    if not observe_mask:
        return observation
    return np.concatenate([observation.ravel(), view.legal_action_mask().astype(np.float32)])


def observe_planes(
    view, observe_mask: bool, planes_shape: tuple[int, ...]
) -> dict[str, np.ndarray]:
    """A seat's policy input (``layout="planes"``): ``{"planes": (C, H, W), "vector": (V,)}``,
    the observation's first ``prod(planes_shape)`` values reshaped in C order and the rest
    (``planes_shape`` is ``rules.planes_shape``); with ``observe_mask`` the legal-action
    mask (0/1) is appended to ``vector``. The same values as :func:`observe`, in order."""
    split = split_planes(view.observation(), planes_shape)  # a fresh array: views are safe
    if observe_mask:
        mask = view.legal_action_mask().astype(np.float32)
        split["vector"] = np.concatenate([split["vector"], mask])
    return split


def as_opponent(opponent: Any) -> Any:
    """The env's source of opponents: anything with ``sample(rng) -> agent`` as it is (an
    Agent, a mix, a snapshot pool); an object with ``act(view)``, or a function ``view ->
    action``, wrapped so that it is one. Agent names are resolved in ``agents/``
    (``boardgame_envs.agents.make_agent``), never here: the core does not import the agents."""
    if hasattr(opponent, "sample"):
        return opponent
    if hasattr(opponent, "act") or (callable(opponent) and not isinstance(opponent, type)):
        return FunctionOpponent(opponent)
    if isinstance(opponent, str):
        raise InvalidConfigError(
            f"opponent={opponent!r}: SingleAgentEnv takes agents, not names; build the env "
            "with boardgame_envs.make_single_agent(game, opponent=...) or gymnasium.make, "
            "which resolve names, or pass agents.make_agent(name, game)"
        )
    raise InvalidConfigError(
        f"opponent={opponent!r} is not allowed; allowed: an Agent (an object with "
        "act(view)), an object with sample(rng) -> Agent, or a function view -> action"
        + ("" if opponent is not None else "; SingleAgentEnv needs one")
    )


class FunctionOpponent:
    """An opponent from a function ``view -> action`` or an object with ``act(view)``
    (and, optionally, ``reset(seed)``), seated as itself in every game."""

    def __init__(self, policy: Callable[[PlayerView], int] | Any) -> None:
        self.policy = policy

    def reset(self, seed: int | None = None) -> None:
        reset = getattr(self.policy, "reset", None)
        if reset is not None and hasattr(self.policy, "act"):
            reset(seed)

    def act(self, view: PlayerView) -> int:
        act = getattr(self.policy, "act", None)
        return act(view) if act is not None else self.policy(view)

    def sample(self, rng: np.random.Generator) -> FunctionOpponent:
        return self

    def __repr__(self) -> str:
        return f"FunctionOpponent({self.policy!r})"
