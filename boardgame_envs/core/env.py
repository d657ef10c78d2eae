"""TurnBasedEnv: the one PettingZoo AEC environment class, shared by every game.

It binds a game's :class:`~boardgame_envs.core.rules.Rules` to PettingZoo's AEC API:

==================  ===================================================================
Agents              ``player_0 … player_{n-1}`` (seat i is ``player_i``)
Action space        ``Discrete(rules.action_size)``, the same for every player count
Observation space   ``Dict(observation=Box(float32, rules.observation_shape),
                    action_mask=Box(int8, (rules.action_size,)))``
Layout              ``layout="flat"`` (default): the observation as one vector, as above.
                    ``"planes"`` (games with ``rules.planes_shape``: Carcassonne, Tahiti,
                    Wasabi): ``observation=Dict(planes=Box(float32, (C, H, W)),
                    vector=Box(float32, (V,)))``, the same values split (planes first)
Observation         encoded from ``state.view(seat)`` only, from that seat's point of view;
                    the mask is all zeros for an agent that is not to decide
Rewards             ``"outcome"`` (default): 0 until the end, then per player
                    (players it beat - players that beat it) / (n - 1).
                    ``"score"``: outcome plus, at every step, the change of
                    ``scale * sign * (own score - mean of the others' scores)``
                    (``score_reward_scale``, default the game's; sign -1 where low
                    scores win), the scores as that player may know them
                    (``state.scores_known_to(seat)``: no other seat's secret)
Truncation          after ``max_steps`` decisions (default: the game's proven bound, which
                    legal play never reaches), or when the rules end a game at a safety
                    limit (``state.truncated``; the outcome rewards are still paid)
==================  ===================================================================

``auto_resolve=True`` applies decisions with a single legal action inside ``step`` so that
agents only see real choices. The raw env raises ``IllegalActionError`` on an illegal
action and changes nothing; :func:`wrap` adds PettingZoo's usual wrappers (illegal action
ends the game with -1 for the offender, bounds check, call-order enforcement).
"""

from __future__ import annotations

import difflib
import inspect
import math
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from boardgame_envs.core.rules import (
    InvalidConfigError,
    Rules,
    State,
    as_action,
    is_integer,
)

REWARD_MODES = ("outcome", "score")
#: Observation layouts: one flat vector, or spatial planes and a vector (games with planes).
LAYOUTS = ("flat", "planes")


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class TurnBasedEnv(AECEnv):
    """A PettingZoo AEC env for any game that implements the rules contract."""

    metadata = {
        "render_modes": ["ansi", "human"],
        "name": "turn_based_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules,
        num_players: int = 2,
        render_mode: str | None = None,
        reward: str = "outcome",
        auto_resolve: bool = False,
        max_steps: int | None = None,
        score_reward_scale: float | None = None,
        layout: str = "flat",
        **options: Any,
    ) -> None:
        super().__init__()
        self.rules = rules
        self.num_players = rules.check_num_players(num_players)
        check_keywords(rules, options, keyword_names(TurnBasedEnv.__init__), rules.name)
        self.options = options
        self.config = rules.make_config(options)  # fails early on a bad option
        self.metadata = {
            "render_modes": list(getattr(rules, "render_modes", ("ansi", "human"))),
            "name": f"{rules.name}_v{rules.version}",
            "is_parallelizable": False,
        }
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidConfigError(
                f"render_mode={render_mode!r} is not allowed; allowed: "
                f"{', '.join(self.metadata['render_modes'])} or None"
            )
        if reward not in REWARD_MODES:
            raise InvalidConfigError(
                f"reward={reward!r} is not allowed; allowed: {', '.join(REWARD_MODES)}"
            )
        check_flag("auto_resolve", auto_resolve)
        if max_steps is not None and (not is_integer(max_steps) or max_steps < 1):
            raise InvalidConfigError(
                f"max_steps={max_steps!r} is not allowed; allowed: an int >= 1, or None "
                "(the game's proven bound on decisions)"
            )
        if score_reward_scale is not None and not is_finite_number(score_reward_scale):
            raise InvalidConfigError(
                f"score_reward_scale={score_reward_scale!r} is not allowed; allowed: a finite "
                "number, or None (the game's own scale)"
            )
        self.layout = check_layout(rules, layout)
        #: (C, H, W) under ``layout="planes"``, else None (observations are flat).
        self.planes_shape = rules.planes_shape if self.layout == "planes" else None
        self.render_mode = render_mode
        self.reward_mode = reward
        self.auto_resolve = bool(auto_resolve)
        self.score_reward_scale = float(
            rules.score_reward_scale if score_reward_scale is None else score_reward_scale
        )
        self.max_steps = (
            rules.max_decisions(self.num_players, self.config)
            if max_steps is None
            else int(max_steps)
        )

        self.possible_agents = [agent_name(seat) for seat in range(self.num_players)]
        self.agent_name_mapping = {name: seat for seat, name in enumerate(self.possible_agents)}
        low, high = rules.observation_bounds
        if self.planes_shape is None:
            obs_box = gymnasium.spaces.Box(low, high, rules.observation_shape, np.float32)
        else:
            (size,) = rules.observation_shape
            obs_box = gymnasium.spaces.Dict(
                {
                    "planes": gymnasium.spaces.Box(low, high, self.planes_shape, np.float32),
                    "vector": gymnasium.spaces.Box(
                        low, high, (size - math.prod(self.planes_shape),), np.float32
                    ),
                }
            )
        mask_box = gymnasium.spaces.Box(0, 1, (rules.action_size,), np.int8)
        space = gymnasium.spaces.Dict({"observation": obs_box, "action_mask": mask_box})
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        self.action_spaces = {
            agent: gymnasium.spaces.Discrete(rules.action_size) for agent in self.possible_agents
        }
        self._seeder = np.random.default_rng()
        self.state: State | None = None

    # -- PettingZoo API -----------------------------------------------------------------
    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            try:
                self._seeder = np.random.default_rng(seed)
            except (TypeError, ValueError):  # numpy's words ("SeedSequence expects ...")
                raise InvalidConfigError(
                    f"reset(seed={seed!r}) is not allowed; allowed: None or an int >= 0"
                ) from None
        game_seed = int(self._seeder.integers(2**63))
        self.state = self.rules.new_state(self.num_players, game_seed, **self.options)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.num_steps = 0
        self._potentials = self._score_potentials()
        if self.auto_resolve:
            self._resolve_forced()
            self.rewards = self._step_rewards()
            self._update_done()
            self._accumulate_rewards()
        self._select_agent()

    def observe(self, agent: str) -> dict[str, Any]:
        state = self.state
        seat = self.agent_name_mapping[agent]
        observation = state.observation(seat)
        if self.planes_shape is not None:
            observation = split_planes(observation, self.planes_shape)
        if seat == state.current_player:
            mask = state.legal_action_mask().view(np.int8)
        else:
            mask = np.zeros(self.rules.action_size, np.int8)
        return {"observation": observation, "action_mask": mask}

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is not int:  # a plain int is already what as_action returns
            action = as_action(action, self.rules.action_size)  # 0-d arrays from predict()
        self.state.apply(action)  # raises IllegalActionError and changes nothing
        self.num_steps += 1
        if self.auto_resolve:
            self._resolve_forced()
        self._cumulative_rewards[agent] = 0.0
        if self.reward_mode == "outcome" and not self.state.is_terminal():
            # The common case, kept short: no reward to pay, nobody done unless the step
            # cap is reached (a fresh dict, so that callers may keep the last one).
            self.rewards = dict.fromkeys(self.possible_agents, 0.0)
            if self.num_steps >= self.max_steps:
                self._update_done()
            self.agent_selection = self.possible_agents[self.state.current_player]
        else:
            self.rewards = self._step_rewards()
            self._update_done()
            self._select_agent()
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; nothing to render")
            return None
        if self.render_mode == "rgb_array":
            return self.state.render_rgb()
        text = self.state.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # -- helpers ------------------------------------------------------------------------
    def _resolve_forced(self) -> None:
        """Apply single-option decisions until a real choice (or the end) comes."""
        while not self.state.is_terminal() and self.num_steps < self.max_steps:
            legal = self.state.legal_actions()
            if len(legal) != 1:
                return
            self.state.apply(legal[0])
            self.num_steps += 1

    def _update_done(self) -> None:
        if self.state.is_terminal() and not self.state.truncated:
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.state.is_terminal() or self.num_steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)

    def _select_agent(self) -> None:
        if not self.state.is_terminal():
            self.agent_selection = self.possible_agents[self.state.current_player]
        elif not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]

    def _score_potentials(self) -> list[float]:
        if self.reward_mode != "score":
            return []
        return score_potentials(self.state, self.score_reward_scale)

    def _step_rewards(self) -> dict[str, float]:
        rewards = [0.0] * self.num_players
        if self.reward_mode == "score":
            potentials = self._score_potentials()
            rewards = [new - old for new, old in zip(potentials, self._potentials)]
            self._potentials = potentials
        if self.state.is_terminal():
            rewards = [r + o for r, o in zip(rewards, self.state.returns())]
        return dict(zip(self.possible_agents, map(float, rewards)))


#: What an unknown ``seed`` keyword is told: envs are seeded at reset.
SEED_NOTE = {"seed": "seed an env with reset(seed=...)"}


def keyword_names(*functions: Callable[..., Any]) -> list[str]:
    """The keyword arguments of ``functions`` (a factory, then the constructors it passes
    its other keywords on to), each once and in order; not ``self``, ``rules`` or ``game``."""
    names: list[str] = []
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    for function in functions:
        for parameter in inspect.signature(function).parameters.values():
            name = parameter.name
            if parameter.kind in kinds and name not in ("self", "rules", "game", *names):
                names.append(name)
    return names


def check_keywords(
    rules: Rules,
    options: dict[str, Any],
    keywords: Sequence[str],
    where: str,
    notes: dict[str, str] | None = None,
) -> None:
    """InvalidConfigError for a name in ``options`` that is neither one of ``keywords``
    (the caller's own and those it passes on) nor an option of the game: one line with
    the nearest name, both lists, and the ``notes`` for a name (``{"seed": ...}``)."""
    unknown = [name for name in options if name not in keywords and name not in rules.options]
    if not unknown:
        return
    note = (notes or {}).get(unknown[0])
    near = difflib.get_close_matches(unknown[0], [*keywords, *rules.options], n=1)
    said = f" ({note});" if note else (f"; did you mean {near[0]!r}?" if near else ";")
    raise InvalidConfigError(
        f"{where}: unknown option {', '.join(map(repr, unknown))}{said} allowed: "
        f"{', '.join(keywords)}, and {rules.name}'s options: "
        f"{', '.join(sorted(rules.options)) or 'none'}"
    )


def check_flag(name: str, value: Any) -> bool:
    """A keyword that must be True or False (a string such as "yes" is refused)."""
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidConfigError(f"{name}={value!r} is not allowed; allowed: True or False")
    return bool(value)


def check_layout(rules: Rules, layout: Any) -> str:
    """The ``layout`` keyword: one of :data:`LAYOUTS`, and ``"planes"`` only for a game
    whose encoding has spatial planes (``rules.planes_shape``)."""
    allowed = LAYOUTS if rules.planes_shape is not None else ("flat",)
    if not isinstance(layout, str) or layout not in allowed:
        planes = isinstance(layout, str) and layout == "planes"
        why = f" for {rules.name} (no spatial planes)" if planes else ""
        raise InvalidConfigError(
            f"layout={layout!r} is not allowed{why}; allowed: {', '.join(map(repr, allowed))}"
        )
    return layout


def split_planes(observation: np.ndarray, planes_shape: tuple[int, ...]) -> dict[str, np.ndarray]:
    """A flat observation as ``{"planes": (C, H, W), "vector": (V,)}``: its first
    ``prod(planes_shape)`` values reshaped in C order, then the rest.

    Both are views of ``observation``: pass a fresh array (``view.observation()`` encodes
    a new one at every call), never a buffer that something else keeps.
    """
    size = math.prod(planes_shape)
    return {"planes": observation[:size].reshape(planes_shape), "vector": observation[size:]}


def is_finite_number(value: Any) -> bool:
    """An int or float (numpy ones too) that is not a bool, NaN or infinite."""
    return (
        isinstance(value, (int, float, np.integer, np.floating))
        and not isinstance(value, (bool, np.bool_))
        and math.isfinite(value)
    )


def score_potentials(state: State, scale: float | None = None) -> list[float]:
    """Per seat ``scale * sign * (own score - mean of the others')``, each seat's from the
    scores as it may know them (``state.scores_known_to(seat)``), so that shaping tells no
    seat another's secret; zero-sum where scores are public (``scale`` defaults to the
    game's ``score_reward_scale``)."""
    rules = state.rules
    scale = rules.score_reward_scale if scale is None else scale
    sign = -1.0 if rules.lower_score_wins else 1.0
    n = state.num_players
    potentials = []
    for seat in range(n):
        scores = state.scores_known_to(seat)
        own = scores[seat]
        total = sum(scores)
        potentials.append(scale * sign * (own - (total - own) / (n - 1)))
    return potentials


def wrap(env: TurnBasedEnv) -> AECEnv:
    """PettingZoo's classic-game wrappers around a raw env."""
    wrapped: AECEnv = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
