"""The rules contract every game implements.

A game provides a :class:`Rules` object (its static description: name, player counts,
action and observation sizes, options) and a :class:`State` (one position of one game).
Rules engines are pure Python + numpy: nothing here knows about PettingZoo, Gymnasium or
torch, so a person can play a game in a notebook with ``state.apply(action)``.

Conventions shared by all games:

* seats are ``0 … n-1``; ``state.current_player`` is the seat that must decide now;
* actions are integers in ``range(rules.action_size)``, the same space for every player count;
* ``state.view(seat)`` holds everything that seat may know and nothing else;
* all randomness comes from the state's own seeded generator, so ``apply`` is deterministic
  given the state and a seed reproduces a whole game;
* a game computes its legal actions once per position in ``State._compute_mask``; the
  state keeps that mask until the next ``apply`` (code that edits a position by hand sets
  ``state._mask = None``).
"""

from __future__ import annotations

import abc
import functools
import importlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np


class IllegalActionError(ValueError):
    """An action that is out of range or not legal in the current position."""


class InvalidConfigError(ValueError):
    """A bad game id, player count, option name or option value."""


class InvalidStateError(ValueError):
    """A snapshot (JSON) that does not describe a valid position."""


@dataclass(frozen=True)
class Option:
    """One game option: its default, the values allowed, and what it does.

    ``allowed`` is either a tuple of the allowed values or a predicate with a
    description of what it accepts (``allowed_text``).
    """

    default: Any
    doc: str
    allowed: tuple[Any, ...] | Callable[[Any], bool] = ()
    allowed_text: str = ""

    def check(self, name: str, value: Any) -> Any:
        if callable(self.allowed):
            ok = self.allowed(value)
            text = self.allowed_text
        else:
            ok = value in self.allowed and type(value) is type(self.default)
            text = ", ".join(repr(v) for v in self.allowed)
        if not ok:
            raise InvalidConfigError(f"option {name}={value!r} is not allowed; allowed: {text}")
        return value


def is_positive_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def is_integer(value: Any) -> bool:
    """A Python int or numpy integer, not a bool (``True`` is an int to Python)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def as_action(action: Any, action_size: int) -> int:
    """``action`` as a plain int: the one check of an action's type, shared by the engine
    and both envs.

    Accepted: a Python int, a numpy integer, or a 0-d integer array (what
    ``MaskablePPO.predict`` returns for one observation). Refused with
    :class:`IllegalActionError` saying what was given: bools, floats, strings, None and
    arrays of any other shape or dtype. The range is not checked here.
    """
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        return int(action[()])
    if is_integer(action):
        return int(action)
    if isinstance(action, np.ndarray):
        given = f"an array of shape {action.shape} and dtype {action.dtype}"
    else:
        given = f"{action!r} of type {type(action).__name__}"
    raise IllegalActionError(
        f"action {given} is not an integer; actions are integers 0..{action_size - 1} "
        "(a Python int, a numpy integer or a 0-d integer array)"
    )


def players_allowed(low: int, high: int) -> str:
    """What a player count may be, for messages: "exactly 2" or "2 to 4"."""
    return f"exactly {low}" if low == high else f"{low} to {high}"


def check_seed(seed: Any) -> int | None:
    """A game seed: None (fresh entropy) or an integer >= 0, else InvalidConfigError."""
    if seed is None:
        return None
    if not is_integer(seed) or seed < 0:
        raise InvalidConfigError(f"seed={seed!r} is not allowed; allowed: None or an int >= 0")
    return int(seed)


class Rules(abc.ABC):
    """Static description of a game and the factory of its states."""

    #: Which engine this is: "python" (the reference) or "native" (boardgame_envs._native).
    engine: ClassVar[str] = "python"
    name: ClassVar[str]
    version: ClassVar[int]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    action_size: ClassVar[int]
    #: The names a state's decision phase (``PlayerView.phase``) takes while the game runs.
    phases: ClassVar[tuple[str, ...]] = ()
    #: Options accepted by :meth:`new_state`, by name.
    options: ClassVar[dict[str, Option]] = {}
    #: True when the lowest score wins (Factors and Multiples); used by reward shaping.
    lower_score_wins: ClassVar[bool] = False
    #: Scale of the ``"score"`` reward shaping: a score difference of 1 is worth this much.
    score_reward_scale: ClassVar[float] = 1.0

    #: Module that turns a view into a tensor: defines ``OBSERVATION_SHAPE``,
    #: ``OBSERVATION_BOUNDS`` (low, high) and ``encode(view)``, and may define ``PLANES``
    #: (see :attr:`planes_shape`). Imported on first use, so that the rules engine never
    #: depends on its encoding.
    encoding_module: ClassVar[str]
    #: Module that defines ``render_text(state, seat)`` (and ``render_rgb(state)`` if any).
    render_module: ClassVar[str]
    render_modes: ClassVar[tuple[str, ...]] = ("ansi", "human")
    #: Module that defines ``sample_state(rules, view, rng)``, the determinizer behind
    #: :meth:`sample_state` ("" = none). Imported on first use, by name: the determinizer
    #: imports the rules, never the other way round.
    sample_module: ClassVar[str] = ""

    # -- what every game defines -------------------------------------------------------
    @abc.abstractmethod
    def _new_state(self, num_players: int, seed: int | None, config: dict[str, Any]) -> State:
        """Deal a new game with checked arguments."""

    @abc.abstractmethod
    def from_dict(self, data: dict[str, Any]) -> State:
        """Rebuild a state from :meth:`State.to_dict`; ``InvalidStateError`` if malformed."""

    @abc.abstractmethod
    def max_decisions(self, num_players: int, config: dict[str, Any]) -> int:
        """A bound on the decisions of one game, proven from the rules (used for truncation)."""

    @functools.cached_property
    def sampler(self) -> Callable[..., State]:
        """The ``sample_state`` function of :attr:`sample_module`."""
        if not self.sample_module:
            raise NotImplementedError(f"{self.name} has no determinizer (sample_state)")
        return importlib.import_module(self.sample_module).sample_state

    def sample_state(self, view: PlayerView, rng: np.random.Generator) -> State:
        """A full state consistent with everything ``view`` holds (a determinization).

        Every part the seat cannot see (other seats' hidden cards, unrevealed bets, the order
        of face-down stacks, the state's own generator) is drawn from ``rng`` uniformly among
        the arrangements consistent with the view. It reads the view only, so two states that
        differ only in what the seat cannot see give the same samples for the same ``rng``.
        Search agents (``agents/search.py``) and hidden-information tests rest on it.
        The default calls :attr:`sample_module`'s ``sample_state(rules, view, rng)``.
        """
        return self.sampler(self, view, rng)

    # -- shared behaviour --------------------------------------------------------------
    @functools.cached_property
    def encoding(self) -> Any:
        return importlib.import_module(self.encoding_module)

    @functools.cached_property
    def renderer(self) -> Any:
        return importlib.import_module(self.render_module)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """Shape of the encoded observation, the same for every player count."""
        return tuple(self.encoding.OBSERVATION_SHAPE)

    @property
    def planes_shape(self) -> tuple[int, int, int] | None:
        """``(channels, rows, columns)`` of the observation's spatial planes, or None for a
        game without them.

        The flat observation starts with those planes: its first ``prod(planes_shape)``
        values, reshaped in C order, are the planes, and the rest is a vector of features
        (the envs' ``layout="planes"`` splits it so). Read from the encoding module's
        ``PLANES`` (None when it has none).
        """
        planes = getattr(self.encoding, "PLANES", None)
        return None if planes is None else tuple(planes)

    @property
    def observation_bounds(self) -> tuple[float, float]:
        return tuple(self.encoding.OBSERVATION_BOUNDS)

    def encode(self, view: PlayerView) -> np.ndarray:
        return self.encoding.encode(view)

    def from_json(self, text: str) -> State:
        """Rebuild a state from :meth:`State.to_json`."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise InvalidStateError(f"not a JSON snapshot: {error}") from error
        try:
            return self.from_dict(data)
        except InvalidStateError as error:
            # another game's snapshot: say whose (its "game" field) rather than list fields
            game = data.get("game") if isinstance(data, dict) else None
            if isinstance(game, str) and game != self.name:
                raise InvalidStateError(
                    f'not a {self.name} snapshot: game {game!r} (the snapshot\'s "game" '
                    f"field) is another game; load it with make_rules({game!r}).from_json(...)"
                ) from error
            raise

    def new_state(self, num_players: int, seed: int | None = None, **options: Any) -> State:
        """A new game for ``num_players`` seats; ``seed`` fixes every random event."""
        num_players = self.check_num_players(num_players)
        return self._new_state(num_players, check_seed(seed), self.make_config(options))

    def check_num_players(self, num_players: Any) -> int:
        if not is_integer(num_players) or not self.min_players <= num_players <= self.max_players:
            raise InvalidConfigError(
                f"{self.name}: num_players={num_players!r} is not allowed; "
                f"allowed: {players_allowed(self.min_players, self.max_players)}"
            )
        return int(num_players)

    def make_config(self, options: dict[str, Any]) -> dict[str, Any]:
        """Defaults overridden by ``options``, each checked; unknown names are an error."""
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            known = ", ".join(sorted(self.options)) or "none"
            raise InvalidConfigError(
                f"{self.name}: unknown option {', '.join(map(repr, unknown))}; known: {known}"
            )
        config = {name: option.default for name, option in self.options.items()}
        for name, value in options.items():
            config[name] = self.options[name].check(name, value)
        return config

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class PlayerView(abc.ABC):
    """What one seat may know: structured fields (per game) plus its mask and tensor."""

    seat: int
    rules: Rules

    @abc.abstractmethod
    def legal_action_mask(self) -> np.ndarray:
        """Bool mask of the seat's legal actions; all False when it is not to decide."""

    def observation(self) -> np.ndarray:
        """The encoded observation tensor, of ``rules.observation_shape``."""
        return self.rules.encode(self)

    def legal_actions(self) -> list[int]:
        return np.flatnonzero(self.legal_action_mask()).tolist()


class State(abc.ABC):
    """One position. ``apply`` mutates it in place."""

    engine: ClassVar[str] = "python"
    rules: Rules
    num_players: int
    #: True when the game ended at a safety limit of the rules (e.g. a round cap) rather
    #: than by its own end condition; the env then reports a truncation.
    truncated: bool = False

    @property
    @abc.abstractmethod
    def current_player(self) -> int:
        """The seat that must decide now (-1 once the game is over)."""

    @abc.abstractmethod
    def is_terminal(self) -> bool: ...

    @abc.abstractmethod
    def _compute_mask(self) -> np.ndarray:
        """The legal actions of this position as a bool array of length
        ``rules.action_size`` (all False when terminal); called once per position."""

    @abc.abstractmethod
    def _apply(self, action: int) -> None:
        """Carry out a legal action (already checked)."""

    @abc.abstractmethod
    def _phase_name(self) -> str:
        """The current decision type, for error messages."""

    @abc.abstractmethod
    def clone(self) -> State: ...

    @abc.abstractmethod
    def scores(self) -> list[float]:
        """The game's own score per seat (see ``rules.lower_score_wins``)."""

    def scores_known_to(self, seat: int) -> list[float]:
        """The score per seat as ``seat`` may know it now: :meth:`scores` where every part
        of a score is public. A game whose running scores hold a secret (a hidden bonus)
        leaves out what ``seat`` cannot know. The env's ``"score"`` reward shaping reads
        these, so that a seat's shaped reward never tells it another seat's secret."""
        return self.scores()

    @abc.abstractmethod
    def view(self, seat: int) -> PlayerView: ...

    @abc.abstractmethod
    def describe_action(self, action: int) -> str:
        """A human-readable move in the current position."""

    @abc.abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """A full, lossless, JSON-compatible snapshot (the hidden facts included)."""

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    def observation(self, seat: int) -> np.ndarray:
        """``self.view(seat).observation()``; a native state encodes it without the view."""
        return self.view(seat).observation()

    def playout(
        self,
        policy: str = "random",
        seed: int | None = None,
        depth: int = 0,
        epsilon: float = 0.0,
    ) -> int:
        """Play moves in place, to the end or for ``depth`` decisions (0: no limit); the
        number of decisions played.

        ``policy="random"``: uniformly random legal moves from
        ``numpy.random.default_rng(seed)``, at each decision
        ``legal_actions()[rng.integers(len(legal))]``, so a seed plays the same moves on
        both engines (the native engine plays them without Python in between).

        ``policy="heuristic"``: the game's heuristic plays every seat, a uniformly random
        move instead with probability ``epsilon`` (one generator for both). The native
        engine plays its compiled heuristics; here the rules engine knows no agents, so
        ``boardgame_envs.agents.heuristic.heuristic_playout`` plays the same moves on either engine.
        """
        policy, seed, depth, epsilon = check_playout_args(policy, seed, depth, epsilon)
        if policy == "heuristic":
            raise InvalidConfigError(
                "policy='heuristic' is played by the native engine's compiled heuristics; "
                f"this {self.rules.name} state is on the Python engine: use "
                "make_rules(game, engine='native'), or "
                "boardgame_envs.agents.heuristic.heuristic_playout(state, seed, depth, epsilon) "
                "(either engine)"
            )
        rng = np.random.default_rng(seed)
        played = 0
        while not self.is_terminal() and (depth == 0 or played < depth):
            legal = self.legal_actions()
            self.apply(legal[int(rng.integers(len(legal)))])
            played += 1
        return played

    def render_text(self, seat: int | None = None, legend: bool = True) -> str:
        """The position as text: from ``seat``'s point of view, or everything when None;
        ``legend=False`` leaves out the key to its marks (the renderer's ``legend_lines()``)."""
        return self.rules.renderer.render_text(self, seat, legend=legend)

    def render_rgb(self) -> np.ndarray:
        """The position as an RGB picture (games whose ``render_modes`` list rgb_array)."""
        return self.rules.renderer.render_rgb(self)

    # -- shared behaviour --------------------------------------------------------------
    #: The legal mask of this position, read-only: made on first use, dropped before every
    #: ``_apply`` (an env step asks for it several times: validation, the view, forced-move
    #: checks, agents). Code that edits a position by hand must set it to None.
    _mask: np.ndarray | None = None

    def legal_action_mask(self) -> np.ndarray:
        """Bool array of length ``rules.action_size``; all False when terminal. A copy:
        callers may write to it."""
        return self._legal_mask().copy()

    def _legal_mask(self) -> np.ndarray:
        """The memoised mask itself, read-only (views may share it)."""
        mask = self._mask
        if mask is None:
            mask = self._compute_mask()
            mask.flags.writeable = False
            self._mask = mask
        return mask

    def legal_actions(self) -> list[int]:
        return np.flatnonzero(self._legal_mask()).tolist()

    def apply(self, action: int) -> None:
        """Play ``action`` for the current player.

        Raises :class:`IllegalActionError` naming the action, the phase and the legal
        actions, and leaves the state unchanged, when the action is not legal now.
        """
        action = as_action(action, self.rules.action_size)
        if self.is_terminal():
            raise IllegalActionError(f"action {action} is not legal: the game is over")
        if not 0 <= action < self.rules.action_size:
            raise IllegalActionError(
                f"action {action} is out of range 0..{self.rules.action_size - 1}; "
                f"legal: {_list(self.legal_actions())}"
            )
        if not self._is_legal(action):
            raise IllegalActionError(
                f"action {action} ({self.describe_action(action)}) is not legal in phase "
                f"{self._phase_name()} for seat {self.current_player}; "
                f"legal: {_list(self.legal_actions())}"
            )
        self._mask = None
        self._apply(action)

    def _check_seat(self, seat: Any) -> int:
        """``seat`` as an int if it is a seat of this game (``0..num_players-1``; numpy
        integers accepted, bools refused), else :class:`InvalidConfigError`. Games call it
        from ``view`` so that ``view(-1)`` or ``view(5)`` never answer for another seat."""
        if not is_integer(seat) or not 0 <= seat < self.num_players:
            raise InvalidConfigError(
                f"seat={seat!r} is not allowed; allowed: an int 0 to {self.num_players - 1} "
                f"({self.num_players} players)"
            )
        return int(seat)

    def _is_legal(self, action: int) -> bool:
        """Whether an in-range action is legal now; games may answer without a full mask."""
        return bool(self._legal_mask()[action])

    def winners(self) -> list[int]:
        """Seats with the best score (several on a tie); empty until the game ends."""
        if not self.is_terminal():
            return []
        keys = self._score_keys()
        best = max(keys)
        return [seat for seat, key in enumerate(keys) if key == best]

    def returns(self) -> list[float]:
        """Per seat: (players it beat - players that beat it) / (n - 1) once over, else 0.

        +1/-1/0 with two players, zero-sum for any number of players.
        """
        if not self.is_terminal():
            return [0.0] * self.num_players
        return outcome_returns(self._score_keys())

    def _score_keys(self) -> list[float]:
        """Scores oriented so that higher is better."""
        sign = -1.0 if self.rules.lower_score_wins else 1.0
        return [sign * s for s in self.scores()]


PLAYOUT_POLICIES = ("random", "heuristic")


def check_playout_args(
    policy: Any, seed: Any, depth: Any, epsilon: Any = 0.0
) -> tuple[str, int | None, int, float]:
    """``State.playout``'s arguments, checked (InvalidConfigError naming what is allowed)."""
    if policy not in PLAYOUT_POLICIES:
        raise InvalidConfigError(
            f"policy={policy!r} is not allowed; allowed: {', '.join(map(repr, PLAYOUT_POLICIES))}"
        )
    if not is_integer(depth) or depth < 0:
        raise InvalidConfigError(
            f"depth={depth!r} is not allowed; allowed: an int >= 0 (0: no limit)"
        )
    if (
        isinstance(epsilon, (bool, np.bool_))
        or not isinstance(epsilon, (int, float, np.integer, np.floating))
        or not 0.0 <= float(epsilon) <= 1.0
    ):
        raise InvalidConfigError(
            f"epsilon={epsilon!r} is not allowed; allowed: a number from 0 to 1"
        )
    if epsilon and policy != "heuristic":
        raise InvalidConfigError(
            f"epsilon={epsilon!r} is for policy='heuristic' (random moves are all random)"
        )
    return policy, check_seed(seed), int(depth), float(epsilon)


_FIXED_SEED = np.random.SeedSequence(0)  # skips gathering OS entropy for a state we overwrite


def copy_rng(rng: np.random.Generator) -> np.random.Generator:
    """An independent generator in the same state (much faster than deepcopy)."""
    bit_generator = type(rng.bit_generator)(_FIXED_SEED)
    bit_generator.state = rng.bit_generator.state
    return np.random.Generator(bit_generator)


def outcome_returns(keys: Sequence[float]) -> list[float]:
    """(beaten - beaten by) / (n - 1) for each entry of ``keys`` (higher is better)."""
    n = len(keys)
    return [
        (sum(k > other for other in keys) - sum(k < other for other in keys)) / (n - 1)
        for k in keys
    ]


def _list(actions: Sequence[int]) -> str:
    return ", ".join(map(str, actions)) if actions else "none"
