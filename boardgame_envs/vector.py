"""Batched single-agent envs: ``num_envs`` games stepped in one call.

``make_vec(game, num_envs, ...)`` is what ``num_envs`` single-agent envs
(:class:`~boardgame_envs.core.single_agent.SingleAgentEnv`) in one Stable-Baselines3
``DummyVecEnv`` are (env ``i`` seeded ``seed + i``: the same
games, observations, masks, rewards and resets, tested step for step), at native speed:
with the native engine and opponents ``"heuristic"``, ``"random"`` or a mix of them, the
learners' actions go in and the opponents' moves, forced moves, observations, masks,
rewards (``outcome`` or ``score``) and hints are made in compiled code, for every env in one
call, into preallocated arrays. Anything else (the Python engine, ``ismcts``, ``ppo:``, your
own agents) steps the same envs one by one in Python.

=================  =====================================================================
Returns            :class:`VecGameEnv`, an SB3 ``VecEnv``: ``reset()``, ``step(actions)``,
                   ``action_masks()`` (read by sb3-contrib's MaskablePPO); auto-reset as
                   SB3's (the final observation in ``infos[i]["terminal_observation"]``)
Gymnasium          :func:`make_gymnasium_vec`: a ``gymnasium.vector.VectorEnv`` over the
                   same batch (``autoreset_mode`` SAME_STEP, ``infos["final_obs"]``)
Observations       flat float32 rows: the learner's observation, with its legal-action
                   mask appended when ``observe_mask`` (default True)
Rewards            the outcome (+1 win, -1 loss, ties between), paid when the game ends;
                   an illegal action ends the episode with -1
=================  =====================================================================
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np

from boardgame_envs.core.env import TurnBasedEnv, check_keywords, keyword_names
from boardgame_envs.core.game import load_object
from boardgame_envs.core.hinted_env import HintedEnv
from boardgame_envs.core.native import native_module
from boardgame_envs.core.rules import InvalidConfigError, is_integer
from boardgame_envs.core.single_agent import SingleAgentEnv
from boardgame_envs.registry import make_rules, make_single_agent


def make_batch(
    game: str,
    num_envs: int,
    num_players: int = 2,
    opponent: Any = "heuristic",
    observe_mask: bool = True,
    learner_seat: int | None = None,
    engine: str | None = None,
    hint: Any = None,
    **options: Any,
) -> _NativeBatch | _PythonBatch:
    """The games behind :func:`make_vec`: compiled (:class:`_NativeBatch`) where the
    engine is native and every opponent (and the hint) is one the engine plays itself,
    else one :class:`SingleAgentEnv` after another (:class:`_PythonBatch`)."""
    if not is_integer(num_envs) or num_envs < 1:
        raise InvalidConfigError(f"num_envs={num_envs!r} is not allowed; allowed: an int >= 1")
    rules = make_rules(game, engine)
    # (names are resolved once for the compiled batch, whose seats only borrow the agents'
    # kinds; the Python batch resolves them once per env, each env its own agents)
    agent = _agent(opponent, game) if isinstance(opponent, str) else opponent
    hint_agent = _agent(hint, game) if isinstance(hint, str) and hint else hint or None
    native = (
        rules.engine == "native"
        and hasattr(rules.native_class, "VecEnv")
        and _plays_natively(agent, game)
        and (hint_agent is None or _policy_code(hint_agent, game) == HEURISTIC)
        and options.get("layout", "flat") == "flat"
        and options.get("auto_resolve", True) is True
        and options.get("illegal_action", "lose") == "lose"
    )
    if native:
        return _NativeBatch(
            rules,
            int(num_envs),
            num_players,
            agent,
            observe_mask,
            learner_seat,
            hint_agent,
            options,
        )
    return _PythonBatch(
        game,
        engine,
        int(num_envs),
        num_players,
        opponent,
        observe_mask,
        learner_seat,
        hint,
        options,
    )


RANDOM, HEURISTIC = 0, 1  # the compiled batch's opponent policies
#: The agents the compiled batch plays itself, by the ``native_policy`` their class declares.
NATIVE_POLICIES = {"random": RANDOM, "heuristic": HEURISTIC}


def _agent(spec: str, game: str) -> Any:
    """The agent an agent spec names. Agents sit above the envs: their spec table is
    loaded by name, never imported here (pass agents in to use your own)."""
    return load_object("boardgame_envs.agents.specs:make_agent")(spec, game)


def _policy_code(agent: Any, game: str) -> int | None:
    """The compiled policy that plays exactly as ``agent`` does, or None: the agent's class
    itself (not a subclass, which may play its own way) names it, for this game."""
    policy = type(agent).__dict__.get("native_policy")
    if policy not in NATIVE_POLICIES or getattr(agent, "game", game) != game:
        return None
    return NATIVE_POLICIES[policy]


def _plays_natively(opponent: Any, game: str) -> bool:
    """Whether every agent ``opponent.sample`` can seat has a compiled twin (a mix of
    agents holds them in ``agents``)."""
    mixed = getattr(opponent, "agents", None)
    if isinstance(mixed, list):
        return all(_plays_natively(agent, game) for agent in mixed)
    return _policy_code(opponent, game) is not None


class _PythonBatch:
    """``num_envs`` SingleAgentEnvs stepped one after another (any engine, any opponent)."""

    def __init__(
        self,
        game: str,
        engine: str | None,
        num_envs: int,
        num_players: int,
        opponent: Any,
        observe_mask: bool,
        learner_seat: int | None,
        hint: Any,
        options: dict[str, Any],
    ) -> None:
        self.envs = []
        for _ in range(num_envs):
            env = make_single_agent(
                game,
                num_players,
                opponent=opponent,
                engine=engine,
                observe_mask=observe_mask,
                learner_seat=learner_seat,
                **options,
            )
            if hint:
                env = HintedEnv(env, _agent(hint, game) if isinstance(hint, str) else hint)
            self.envs.append(env)
        self.num_envs = num_envs
        self.observation_space = self.envs[0].observation_space
        self.action_space = self.envs[0].action_space
        self.compiled = False

    def reset_env(self, i: int, seed: int | None) -> tuple[np.ndarray, dict]:
        return self.envs[i].reset(seed=seed)

    def step_all(self, actions: np.ndarray) -> tuple:
        """Every env's step: (observations, rewards, terminated, truncated, infos)."""
        actions = checked_actions(actions, self.num_envs)
        results = [env.step(int(a)) for env, a in zip(self.envs, actions)]
        obs = np.stack([r[0] for r in results])
        rewards = np.array([r[1] for r in results], dtype=np.float32)
        terminated = np.array([r[2] for r in results], dtype=bool)
        truncated = np.array([r[3] for r in results], dtype=bool)
        return obs, rewards, terminated, truncated, [r[4] for r in results]

    def action_masks(self) -> np.ndarray:
        return np.stack([env.action_masks() for env in self.envs])

    def learner_seats(self) -> list[int]:
        return [env.learner_seat for env in self.envs]

    def state(self, i: int) -> Any:
        return self.envs[i].state


class _NativeBatch:
    """The batch in compiled code: the learners' actions in, the opponents' and forced moves
    played and every row written in one call. Each new game is drawn here exactly as
    ``SingleAgentEnv.reset`` (and ``HintedEnv.reset``) draw it: the env's generator gives
    the game's seed, the learner's seat, each opponent seat's agent and its seed, then the
    hint's seed."""

    def __init__(
        self,
        rules: Any,
        num_envs: int,
        num_players: int,
        opponent: Any,
        observe_mask: bool,
        learner_seat: int | None,
        hint: Any,
        options: dict[str, Any],
    ) -> None:
        # The same checks and defaults as the single-agent env (one is built and dropped).
        probe = make_single_agent(
            rules.name,
            num_players,
            opponent=opponent,
            engine="native",
            observe_mask=observe_mask,
            learner_seat=learner_seat,
            **options,
        )
        game_env = probe.game
        self.rules = rules
        self.num_envs = num_envs
        self.num_players = probe.num_players
        self.game_options = dict(game_env.options)
        self.fixed_seat = probe.fixed_seat
        self.opponent = probe.opponent
        self.hint = hint is not None
        space = probe.observation_space
        if self.hint:
            size = rules.action_size
            space = gymnasium.spaces.Box(
                np.concatenate([space.low, np.zeros(size, np.float32)]),
                np.concatenate([space.high, np.ones(size, np.float32)]),
                dtype=np.float32,
            )
        self.observation_space = space
        self.action_space = probe.action_space
        self.compiled = True
        self.native = rules.native_class.VecEnv(
            num_envs,
            self.num_players,
            bool(observe_mask),
            self.hint,
            game_env.reward_mode == "score",
            float(game_env.score_reward_scale),
            game_env.max_steps,
        )
        row = self.native.row_size
        self.observations = np.zeros((num_envs, row), np.float32)
        self.masks = np.zeros((num_envs, rules.action_size), np.uint8)
        self.rewards = np.zeros(num_envs, np.float32)
        self.terminated = np.zeros(num_envs, np.uint8)
        self.truncated = np.zeros(num_envs, np.uint8)
        self.illegal = np.zeros(num_envs, np.uint8)
        self.generators: list[np.random.Generator | None] = [None] * num_envs
        self.seats = [0] * num_envs
        self.pcg64 = native_module().Pcg64

    def _buffers(self) -> tuple:
        return (
            self.observations,
            self.masks,
            self.rewards,
            self.terminated,
            self.truncated,
            self.illegal,
        )

    def reset_env(self, i: int, seed: int | None) -> tuple[np.ndarray, dict]:
        """SingleAgentEnv.reset(seed=seed) of env ``i``: its first observation and info."""
        if seed is not None or self.generators[i] is None:
            self.generators[i] = np.random.default_rng(seed)
        rng = self.generators[i]
        game_seed = int(np.random.default_rng(int(rng.integers(2**63))).integers(2**63))
        state = self.rules.new_state(self.num_players, game_seed, **self.game_options)
        seat = self.fixed_seat
        if seat is None:
            seat = int(rng.integers(self.num_players))
        policies = [RANDOM] * self.num_players
        rng_index = [0] * self.num_players
        seeds: list[int] = []
        owner: dict[int, int] = {}  # an agent seated twice keeps one generator: its last seed
        for other in range(self.num_players):
            if other == seat:
                continue
            agent = self.opponent.sample(rng)
            agent_seed = int(rng.integers(2**63))
            k = owner.setdefault(id(agent), len(seeds))
            if k == len(seeds):
                seeds.append(agent_seed)
            seeds[k] = agent_seed
            policies[other] = _policy_code(agent, self.rules.name)
            rng_index[other] = k
        rngs = [self.pcg64.from_seed(s) for s in seeds]
        hint_rng = self.pcg64.from_seed(int(rng.integers(2**63))) if self.hint else None
        self.seats[i] = seat
        self.native.start(
            i, state._native, seat, policies, rng_index, rngs, hint_rng, *self._buffers()
        )
        info = {"learner_seat": seat, "reward_before_first_turn": 0.0}
        return self.observations[i].copy(), info

    def step_all(self, actions: np.ndarray) -> tuple:
        actions = checked_actions(actions, self.num_envs)
        self.native.step(actions, *self._buffers())
        infos: list[dict] = [{"learner_seat": seat} for seat in self.seats]
        for i in np.flatnonzero(self.illegal).tolist():
            infos[i]["illegal_action"] = f"action {int(actions[i])} is not legal"
        return (
            self.observations.copy(),
            self.rewards.copy(),
            self.terminated.astype(bool),
            self.truncated.astype(bool),
            infos,
        )

    def action_masks(self) -> np.ndarray:
        return self.masks.astype(bool)

    def learner_seats(self) -> list[int]:
        return list(self.seats)

    def state(self, i: int) -> Any:
        """A copy of env ``i``'s game (a native state of the rules contract)."""
        return self.rules.wrap(self.native.state(i))


def checked_actions(actions: Any, num_envs: int) -> np.ndarray:
    """One integer action per env, as a contiguous int64 array."""
    array = np.asarray(actions)
    if array.shape not in ((num_envs,), (num_envs, 1)) or not (
        np.issubdtype(array.dtype, np.integer)
        or (np.issubdtype(array.dtype, np.floating) and np.all(array == np.round(array)))
    ):
        raise ValueError(
            f"actions: one integer action per env is needed, shape ({num_envs},); "
            f"got shape {array.shape} of {array.dtype}"
        )
    return np.ascontiguousarray(array.reshape(num_envs), dtype=np.int64)


def make_vec(
    game: str,
    num_envs: int,
    num_players: int = 2,
    opponent: Any = "heuristic",
    observe_mask: bool = True,
    seed: int | None = None,
    learner_seat: int | None = None,
    engine: str | None = None,
    hint: Any = None,
    **options: Any,
) -> Any:
    """``num_envs`` single-agent games of ``game`` as one Stable-Baselines3 ``VecEnv``.

    ``opponent``: an agent name (``heuristic``, ``random``: played in compiled code on the
    native engine, as is an ``AgentMix`` of them; ``ismcts[:…]``, ``ppo:<model>``) or an
    agent object; ``seed``: env ``i`` is seeded ``seed + i`` at the first reset (None: fresh
    entropy); ``learner_seat``: the learner's seat (None: drawn at every reset); ``hint``:
    an agent (name) whose one-hot move in the learner's view ends every row, as
    ``boardgame_envs.core.hinted_env.HintedEnv`` appends it; other keywords go to the single-agent
    env and the game (``reward``, ``score_reward_scale``, ``max_steps``, the game's options)."""
    from boardgame_envs._vec_sb3 import VecGameEnv

    _check_vec_keywords(make_vec, game, engine, options)
    _check_vec_seed("make_vec(seed=", seed)
    batch = make_batch(
        game, num_envs, num_players, opponent, observe_mask, learner_seat, engine, hint, **options
    )
    env = VecGameEnv(batch)
    env.seed(seed)
    return env


def make_gymnasium_vec(
    game: str,
    num_envs: int,
    num_players: int = 2,
    opponent: Any = "heuristic",
    observe_mask: bool = True,
    learner_seat: int | None = None,
    engine: str | None = None,
    hint: Any = None,
    **options: Any,
) -> GymnasiumVecEnv:
    """The same batch as :func:`make_vec` as a ``gymnasium.vector.VectorEnv``
    (``reset(seed=s)`` seeds env ``i`` with ``s + i``)."""
    _check_vec_keywords(make_gymnasium_vec, game, engine, options)
    batch = make_batch(
        game,
        num_envs,
        num_players,
        opponent,
        observe_mask,
        learner_seat,
        engine,
        hint,
        **options,
    )
    return GymnasiumVecEnv(batch)


def _check_vec_keywords(
    factory: Callable[..., Any], game: str, engine: str | None, options: dict[str, Any]
) -> None:
    """InvalidConfigError for an unknown keyword of ``factory``: it names the factory's own
    arguments, those of the single-agent and AEC envs it passes on, and the game's options."""
    if not options:
        return
    keywords = keyword_names(factory, SingleAgentEnv.__init__, TurnBasedEnv.__init__)
    notes = {} if "seed" in keywords else {"seed": "seed the batch with reset(seed=s)"}
    check_keywords(make_rules(game, engine), options, keywords, factory.__name__, notes)


def _check_vec_seed(call: str, seed: Any) -> None:
    """InvalidConfigError for a seed that is neither None nor an integer >= 0 (env ``i``
    gets ``seed + i``), before numpy or Gymnasium refuse it in their own words."""
    if seed is not None and not (isinstance(seed, (int, np.integer)) and seed >= 0):
        raise InvalidConfigError(f"{call}{seed!r}) is not allowed; allowed: None or an int >= 0")


class GymnasiumVecEnv(gymnasium.vector.VectorEnv):
    """A batch as a Gymnasium ``VectorEnv``: a finished env is reset in the same step
    (``autoreset_mode`` SAME_STEP), its last observation in ``infos["final_obs"]`` (with
    the mask ``infos["_final_obs"]``)."""

    metadata = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}

    def __init__(self, batch: Any) -> None:
        self.batch = batch
        self.num_envs = batch.num_envs
        self.single_observation_space = batch.observation_space
        self.single_action_space = batch.action_space
        self.observation_space = gymnasium.vector.utils.batch_space(
            batch.observation_space, self.num_envs
        )
        self.action_space = gymnasium.vector.utils.batch_space(batch.action_space, self.num_envs)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple:
        _check_vec_seed("reset(seed=", seed)
        obs = []
        for i in range(self.num_envs):
            first, _ = self.batch.reset_env(i, None if seed is None else seed + i)
            obs.append(first)
        return np.stack(obs), {"learner_seat": np.array(self.batch.learner_seats())}

    def step(self, actions: Any) -> tuple:
        obs, rewards, terminated, truncated, _ = self.batch.step_all(np.asarray(actions))
        done = terminated | truncated
        infos: dict[str, Any] = {}
        if done.any():
            final = np.empty(self.num_envs, dtype=object)
            for i in np.flatnonzero(done).tolist():
                final[i] = obs[i].copy()
                obs[i], _ = self.batch.reset_env(i, None)
            infos = {"final_obs": final, "_final_obs": done}
        infos["learner_seat"] = np.array(self.batch.learner_seats())
        return obs, rewards, terminated, truncated, infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of each env's learner, one row per env."""
        return self.batch.action_masks()


__all__ = ["GymnasiumVecEnv", "make_gymnasium_vec", "make_vec"]
