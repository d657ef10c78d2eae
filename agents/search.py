"""Information-set Monte Carlo tree search (single-observer ISMCTS).

Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012.
The agent is written once, against the rules contract alone:

* each iteration draws a fresh determinization of the agent's view,
  ``rules.sample_state(view, rng)``: a full state consistent with what the seat knows;
* it walks down one tree, keyed by the actions played from the decision being taken (the
  observer's information, never the hidden facts), choosing among the children whose
  action is legal in this determinization by UCB, where a child's exploration term counts
  the iterations in which it was *available*, not the parent's visits;
* it adds one node, finishes the game with a rollout policy (random, the game's heuristic,
  or cut after ``depth`` decisions and scored by a static evaluation), and backs up one
  reward per player, so every node is judged by the player who chose its action: 2 to 5
  seats alike.

The move played is the root action visited most; with ``verify`` the tree only proposes:
a move other than the heuristic's must also beat it over paired full games (common
determinizations and rollout seeds), else the heuristic's move is played. A decision is
reproducible from the view, the agent's seed and an iteration budget (a time budget
depends on the machine's speed).

Options (agent spec ``ismcts:iterations=400,rollout=heuristic``; see :data:`OPTIONS`):

| option | meaning |
|---|---|
| ``iterations`` | iterations per decision (0 = no limit; then ``seconds`` decides) |
| ``seconds`` | wall-clock seconds per decision (0 = no limit) |
| ``rollout`` | ``random``, ``heuristic`` (the game's own rule-based player) or ``none`` |
| ``depth`` | rollout decisions before the static evaluation (0 = play to the end) |
| ``c`` | UCB exploration constant (rewards lie in [-1, 1]) |
| ``epsilon`` | share of random moves in heuristic rollouts |
| ``first`` | ``1``: a new node's first child is the heuristic's move; ``0``: a random one |
| ``widen`` | the root tries only the heuristic's ``widen`` best moves (where the game ranks them) |
| ``pw`` | progressive widening: at most ``1 + pw * sqrt(visits)`` children per node (0 = off) |
| ``guard`` | play the heuristic's move unless the search's beats its mean reward by ``guard`` |
| ``root`` | ``tree`` (ISMCTS) or ``paired``: one-step rollout improvement of the heuristic |
| ``phases`` | ``+``-separated phases to search (``BID+BET``); the heuristic plays the rest |
| ``quiet`` | ``+``-separated phases at which a rollout cut by ``depth`` may stop (``BID``) |
| ``verify`` | a move not the heuristic's must also beat it over ``verify`` paired full games |
| ``z`` | ``root=paired`` and ``verify``: the advantage must be ``z`` standard errors above zero |
| ``finish`` | ``root=paired``: roll out to the end once at most ``finish`` turns are left |
| ``late`` | at most ``late`` turns left: decide as ``root=paired``, rolling out to the end |
| ``late_iterations`` | ``late``: common determinizations each candidate is played on |
| ``late_widen`` | ``late``: the candidates are the heuristic's ``late_widen`` best moves (0: all) |
| ``mid`` | at most ``mid`` turns left (more than ``late``): decide ``mid_phases`` as ``late`` |
| ``mid_iterations`` | ``mid``: common determinizations each candidate is played on |
| ``mid_widen`` | ``mid``: the heuristic's ``mid_widen`` best moves are compared (0: all) |
| ``mid_phases`` | ``mid``: the ``+``-separated decision phases it takes (empty: all) |
| ``margin`` | weight of the final score margin in a finished rollout's reward |
| ``seed`` | seed of the agent's generator (``reset(seed)`` reseeds it) |
| ``preset`` | a game's named settings (``search_presets``; ``v1``: tuned on the Python engine) |

Defaults are per game (the game's settings, ``agents/games/<game>/``, over
:class:`SearchOptions`). On the native
engine the determinizations, heuristic rollouts and leaf values run in compiled code (the
same values; the rollouts' random streams are the engine's), the tree in Python.

At least one budget (iterations or seconds) must be set.
"""

from __future__ import annotations

import difflib
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any

import numpy as np

from boardgame_envs.agents.base import Agent
from boardgame_envs.agents.heuristic import make_heuristic
from boardgame_envs.agents.leaf_values import leaf_evaluator
from boardgame_envs.agents.search_priors import rank_actions
from boardgame_envs.agents.settings import game_settings
from boardgame_envs.core.native import native_module
from boardgame_envs.core.rules import InvalidConfigError, PlayerView, State
from boardgame_envs.registry import GAMES, make_rules

ROLLOUTS = ("random", "heuristic", "none")
ROOTS = ("tree", "paired")


@dataclass(frozen=True)
class SearchOptions:
    """The knobs of one ISMCTS agent; every field is also an agent-spec option."""

    iterations: int = 0
    """iterations per decision; 0 = no iteration limit (then ``seconds`` bounds it)"""
    seconds: float = 0.25
    """wall-clock seconds per decision; 0 = no time limit"""
    rollout: str = "random"
    """how a new leaf's game is finished: random, heuristic or none (evaluate at once)"""
    depth: int = 0
    """rollout decisions before the static evaluation scores the position; 0 = to the end"""
    c: float = 0.7
    """UCB exploration constant"""
    epsilon: float = 0.0
    """share of uniformly random moves in heuristic rollouts"""
    first: int = 0
    """1: a new node's first child is the heuristic's move; 0: a random untried move"""
    widen: int = 0
    """> 0: the root tries only the heuristic's ``widen`` best moves, where the game ranks
    them (``agents/search_priors.py``); 0: every legal move"""
    guard: float = 0.0
    """> 0: play the heuristic's own move unless the search's choice beats its mean reward
    by more than ``guard`` (search noise then cannot talk it out of a sound move)"""
    pw: float = 0.0
    """progressive widening: a node with n visits has at most ``1 + pw * sqrt(n)`` children
    (expanded in order: the heuristic's move first with ``first=1``); 0: every legal move
    is tried once before any is tried twice"""
    root: str = "tree"
    """tree: ISMCTS; paired: one-step rollout improvement of the heuristic, every root
    candidate scored on the same determinizations and rollout seeds (see ``_act_paired``)"""
    z: float = 0.0
    """root=paired and verify: a candidate replaces the heuristic's move only if its mean
    advantage is also ``z`` standard errors above zero (0: the mean alone decides)"""
    finish: int = 0
    """root=paired: roll out to the end of the game, whatever ``depth`` says, once at most
    ``finish`` turns are left (where the game counts them: Carcassonne's stack); 0: never"""
    late: int = 0
    """> 0, where the game counts its turns (Carcassonne's stack): once at most ``late``
    turns are left, each decision is a one-step improvement of the heuristic whatever
    ``root`` says: every candidate (see ``late_widen``) is played on the same
    ``late_iterations`` determinizations and rolled out by the heuristic to the end of the
    game, and one other than the heuristic's move must be ``z`` standard errors better.
    Its cost, not ``seconds``, bounds it: candidates x iterations short games. 0: never"""
    late_iterations: int = 16
    """``late``: determinizations (and paired rollouts) per late decision"""
    late_widen: int = 0
    """``late``: the candidates are the heuristic's ``late_widen`` best moves where the game
    ranks them (every move it does not rank stays); 0: every legal move"""
    mid: int = 0
    """> 0, where the game counts its turns: once at most ``mid`` turns are left but more
    than ``late``, decisions of the ``mid_phases`` are decided as late ones are, with
    ``mid_iterations`` and ``mid_widen`` (the turns before the ending, where fewer
    candidates can be played out); 0 (or ``mid <= late``): never"""
    mid_iterations: int = 8
    """``mid``: determinizations (and paired rollouts) per mid decision"""
    mid_widen: int = 4
    """``mid``: the heuristic's best moves compared (0: every legal move)"""
    mid_phases: str = ""
    """``+``-separated decision phases the ``mid`` tier takes (the tree decides the
    others); empty: every phase"""
    phases: str = ""
    """``+``-separated names of the decision phases to search (``rules.phases``, e.g.
    ``BID+BET``); at the others the heuristic's move is played. Empty: search everywhere"""
    quiet: str = ""
    """``+``-separated decision phases at which a rollout cut by ``depth`` may stop: past
    ``depth`` decisions it goes on to the next decision of one of them (a quiet position
    for the static evaluation, e.g. Cornucopia's ``BID``: the turn has been resolved).
    Empty: stop at ``depth``"""
    margin: float = 0.0
    """weight in [0, 1] of the final score margin, ``tanh(margin / scale)``, against the
    win/loss outcome in the reward of a rollout that reaches the end of the game"""
    verify: int = 0
    """> 0: when the search's choice is not the heuristic's move, both are played on
    ``verify`` common determinizations and finished by the same heuristic rollouts, to the
    end of the game (whatever ``rollout`` the tree uses); the choice stands only if its
    mean advantage is above zero (and ``z`` standard errors). 0: no check"""

    def __post_init__(self) -> None:
        _check_number("iterations", self.iterations, int, low=0)
        _check_number("seconds", self.seconds, (int, float), low=0)
        _check_number("depth", self.depth, int, low=0)
        _check_number("widen", self.widen, int, low=0)
        _check_number("pw", self.pw, (int, float), low=0)
        _check_number("guard", self.guard, (int, float), low=0, high=2)
        _check_number("c", self.c, (int, float), low=0)
        _check_number("epsilon", self.epsilon, (int, float), low=0, high=1)
        if self.first not in (0, 1) or isinstance(self.first, bool):
            raise InvalidConfigError(f"ismcts option first={self.first!r}: allowed 0 or 1")
        _check_number("margin", self.margin, (int, float), low=0, high=1)
        _check_number("z", self.z, (int, float), low=0)
        _check_number("finish", self.finish, int, low=0)
        _check_number("verify", self.verify, int, low=0)
        _check_number("late", self.late, int, low=0)
        _check_number("late_iterations", self.late_iterations, int, low=1)
        _check_number("late_widen", self.late_widen, int, low=0)
        _check_number("mid", self.mid, int, low=0)
        _check_number("mid_iterations", self.mid_iterations, int, low=1)
        _check_number("mid_widen", self.mid_widen, int, low=0)
        if self.root not in ROOTS:
            raise InvalidConfigError(
                f"ismcts option root={self.root!r} is unknown; allowed: {', '.join(ROOTS)}"
            )
        if self.root == "paired" and self.rollout == "random":
            raise InvalidConfigError(
                "ismcts option root=paired improves on the heuristic: it needs "
                "rollout=heuristic or rollout=none"
            )
        if self.rollout not in ROLLOUTS:
            raise InvalidConfigError(
                f"ismcts option rollout={self.rollout!r} is unknown; allowed: {', '.join(ROLLOUTS)}"
            )
        if self.iterations == 0 and self.seconds == 0:
            raise InvalidConfigError(
                "ismcts needs a budget: iterations >= 1 or seconds > 0 (or both)"
            )
        if self.rollout == "none" and self.depth:
            raise InvalidConfigError("ismcts option depth needs a rollout (random or heuristic)")
        if self.quiet and (self.rollout == "none" or not self.depth):
            raise InvalidConfigError(
                "ismcts option quiet needs a rollout cut by depth (rollout=random or "
                "heuristic, depth >= 1)"
            )


def _check_number(name: str, value: Any, kinds: Any, low: float, high: float | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, kinds):
        kind = "an integer" if kinds is int else "a number"
        raise InvalidConfigError(f"ismcts option {name}={value!r} must be {kind}")
    if not math.isfinite(value) or value < low or (high is not None and value > high):
        limit = f"{low} to {high}" if high is not None else f">= {low}"
        raise InvalidConfigError(f"ismcts option {name}={value!r} is out of range: {limit}")


#: Each departure from the heuristic's move checked by 16 paired full games, scored half by
#: the outcome and half by the score margin, kept only one standard error above zero.
VERIFIED = {"verify": 16, "margin": 0.5, "z": 1.0}

#: Option names of the agent spec and the type each value is parsed as.
OPTIONS: dict[str, str] = {f.name: str(f.type) for f in fields(SearchOptions)} | {
    "seed": "int",
    "preset": "str",
}
#: How an option's text is read: by its field's type (``seed`` and ``preset`` besides).
_PARSERS: dict[str, Callable[[str], Any]] = {
    name: {"int": int, "float": float, "str": str}[str(kind)] for name, kind in OPTIONS.items()
}


def default_options(game: str, preset: str | None = None) -> SearchOptions:
    """The settings of ``game`` under ``preset`` (None: today's defaults): the game's own
    (its settings' ``search`` and ``search_presets``) over :class:`SearchOptions`."""
    settings = game_settings(game)
    if preset is None:
        return replace(SearchOptions(), **settings.search)
    if preset not in settings.search_presets:
        allowed = ", ".join(settings.search_presets) or f"none for {game}"
        raise InvalidConfigError(f"ismcts option preset={preset!r} is unknown; allowed: {allowed}")
    return replace(SearchOptions(), **settings.search_presets[preset])


def parse_options(text: str, game: str) -> tuple[SearchOptions, int | None]:
    """``"iterations=400,rollout=heuristic"`` -> (options over the game's defaults, seed)."""
    values = parse_option_values(text)
    seed = values.pop("seed", None)
    preset = values.pop("preset", None)
    return replace(default_options(game, preset), **values), seed


def parse_option_values(text: str) -> dict[str, Any]:
    """``"iterations=400,rollout=heuristic"`` -> {"iterations": 400, "rollout": "heuristic"}:
    the options given, each parsed as its type (``seed`` and ``preset`` among them)."""
    values: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, sep, raw = item.partition("=")
        name = name.strip()
        if not sep or name not in _PARSERS:
            allowed = ", ".join(_PARSERS)
            near = [] if name in _PARSERS else difflib.get_close_matches(name, _PARSERS, n=1)
            hint = f" did you mean {near[0] + sep + raw.strip()!r}?" if near else ""
            raise InvalidConfigError(
                f"ismcts option {item!r} is unknown;{hint} write name=value with name one of: "
                f"{allowed}"
            )
        try:
            values[name] = _PARSERS[name](raw.strip())
        except ValueError:
            raise InvalidConfigError(
                f"ismcts option {name}={raw.strip()!r} is not a valid {_PARSERS[name].__name__}"
            ) from None
    return values


class _Node:
    """Statistics of one action from its parent: who chose it, visits, availability, the
    chooser's total reward, and the children by action."""

    __slots__ = ("mover", "visits", "available", "total", "children")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.available = 1
        self.total = 0.0
        self.children: dict[int, _Node] = {}


class ISMCTSAgent(Agent):
    """Single-observer ISMCTS over the game's determinizer (see the module docstring)."""

    name = "ismcts"

    def __init__(
        self,
        game: str,
        options: SearchOptions | None = None,
        seed: int | None = None,
        heuristic: Agent | None = None,
        engine: str | None = None,
    ) -> None:
        super().__init__(seed)
        self.game = game
        # Determinizations, rollouts and leaf values run on this engine: the native one
        # (compiled determinizer, heuristic playouts and evaluation) wherever it is built.
        self.rules = make_rules(game, engine=engine)
        self.native = self.rules.engine == "native"
        self.options = options or default_options(game)
        # the static evaluation: compiled where the engine has it (the same values)
        if self.native and hasattr(self.rules.native_class, "leaf_values"):
            self.evaluate: Callable[[State], list[float]] = _native_leaf_values
        else:
            self.evaluate = leaf_evaluator(game)
        self.turns_left = game_settings(game).turns_left
        for name in ("late", "mid"):
            value = getattr(self.options, name)
            if value and self.turns_left is None:
                counting = [g for g in GAMES if game_settings(g).turns_left is not None]
                raise InvalidConfigError(
                    f"ismcts option {name}={value}: {game} does not count its turns "
                    f"left; allowed only in {', '.join(counting)}"
                )
        needs_heuristic = (
            self.options.rollout == "heuristic"
            or self.options.first
            or self.options.widen
            or self.options.guard
            or self.options.root == "paired"
            or self.options.phases
            or self.options.verify
            or self.options.late
            or self.options.mid
        )
        if needs_heuristic and heuristic is None:
            heuristic = make_heuristic(game, engine=self.rules.engine)
        self.heuristic = heuristic
        self.searched_phases = _named_phases(game, self.rules.phases, self.options.phases)
        self.mid_phases = _named_phases(
            game, self.rules.phases, self.options.mid_phases, "mid_phases"
        )
        self.quiet_phases = _named_phases(game, self.rules.phases, self.options.quiet, "quiet")
        self.last_iterations = 0  # iterations of the last decision (for reports and tests)
        self.root_moves: set[int] | None = None
        self.last_root: _Node | None = None  # the tree of the last decision, for analysis
        #: the tree's own choice (its most visited move) before ``guard`` or ``verify``
        self.last_tree_choice: int | None = None
        #: root=paired: each candidate's mean advantage over the heuristic's move, last decision
        self.last_advantages: dict[int, float] = {}
        #: the paired comparison of the last decision, where it made one (for soft targets)
        self.last_paired: PairedEvidence | None = None
        #: verify: the checked choice's mean advantage over the heuristic's move, last check
        self.last_verify_gain = 0.0
        self.py_rng_rollout = random.Random(0)
        self.py_rng = random.Random(0)

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        if self.heuristic is not None:
            self.heuristic.reset(None if seed is None else seed + 1)

    def act(self, view: PlayerView) -> int:
        self.last_root = None  # set again below only where this decision searches a tree
        self.last_paired = None  # set again below only where it compares moves by pairs
        self.last_tree_choice = None
        legal = view.legal_actions()
        if not legal:
            raise InvalidConfigError(f"seat {view.seat} has no legal action in this view")
        if len(legal) == 1:
            return legal[0]
        decision_seed = int(self.rng.integers(2**63))
        if self.searched_phases is not None and view.phase not in self.searched_phases:
            self.last_iterations = 0
            self.heuristic.reset(decision_seed % 2**32)
            return self.heuristic.act(view)
        sample_rng = self._sample_generator(view, decision_seed)
        self.py_rng = random.Random(decision_seed)
        if self.heuristic is not None:
            self.heuristic.reset(decision_seed % 2**32)
        options = self.options
        ending = self._ending_budget(view)
        if ending is not None:
            iterations, widen = ending
            self.root_moves = self._root_moves(view, legal, widen)
            return self._act_paired(view, legal, sample_rng, iterations, guard=0.0, to_end=True)
        self.root_moves = self._root_moves(view, legal, options.widen)
        if options.root == "paired":
            return self._act_paired(view, legal, sample_rng, options.iterations, options.guard)
        root = _Node(view.seat)
        deadline = time.perf_counter() + options.seconds if options.seconds else math.inf
        self.last_iterations = self._grow(root, view, sample_rng, options.iterations, deadline)
        self.last_root = root
        choice = max(legal, key=lambda a: _rank(root.children.get(a)))
        self.last_tree_choice = choice
        if not (options.guard or options.verify):
            return choice
        own = self._incumbent(view)
        if options.guard:
            choice = self._guarded(root, choice, own)
        if options.verify and choice != own:
            choice = self._verified(view, own, choice, sample_rng)
        return choice

    def _grow(
        self, root: _Node, view: PlayerView, sample_rng: Any, iterations: int, deadline: float
    ) -> int:
        """Run iterations from ``root``, each on a new determinization of ``view``, until
        ``iterations`` (0: no limit) or ``deadline`` (at least one); returns how many."""
        limit = iterations or math.inf
        done = 0
        while done < limit and (done == 0 or time.perf_counter() < deadline):
            self._iterate(root, self.rules.sample_state(view, sample_rng))
            done += 1
        return done

    def _incumbent(self, view: PlayerView) -> int:
        """The move the search must beat (``guard``, ``verify``, ``root=paired``): the
        heuristic's."""
        return self.heuristic.act(view)

    def _sample_generator(self, view: PlayerView, seed: int) -> Any:
        """The generator of this decision's determinizations: the native engine's own
        (``Pcg64``, numpy's stream) for a native view, which its determinizer draws from
        directly; else a numpy generator."""
        if self.native and type(getattr(view, "_source", None)) is self.rules.native_class:
            return native_module().Pcg64.from_seed(seed)
        return np.random.default_rng(seed)

    def _ending_budget(self, view: PlayerView) -> tuple[int, int] | None:
        """(iterations, widen) of a decision played out to the end (``late`` or ``mid``
        turns left), or None where the tree decides."""
        options = self.options
        if not (options.late or options.mid):
            return None
        left = self.turns_left(view)
        if left <= options.late:
            return options.late_iterations, options.late_widen
        if left <= options.mid and (self.mid_phases is None or view.phase in self.mid_phases):
            return options.mid_iterations, options.mid_widen
        return None

    def _guarded(self, root: _Node, choice: int, own: int) -> int:
        """The heuristic's move ``own``, unless ``choice`` beats its mean reward by ``guard``."""
        mine, theirs = root.children.get(choice), root.children.get(own)
        if own == choice or theirs is None or mine is None:
            return choice if theirs is None else own
        gain = mine.total / mine.visits - theirs.total / theirs.visits
        return choice if gain > self.options.guard else own

    def _verified(self, view: PlayerView, own: int, choice: int, sample_rng: Any) -> int:
        """``choice`` if it beats the heuristic's move ``own`` over ``verify`` paired
        full-game rollouts (same determinization, same rollout seed for both), else ``own``."""
        gains = []
        for _ in range(self.options.verify):
            state = self.rules.sample_state(view, sample_rng)
            theirs, mine = self._paired_values(state, [own, choice], view.seat, to_end=True)
            gains.append(mine - theirs)
        self.last_verify_gain = sum(gains) / len(gains)
        return choice if _above_zero(gains, self.options.z) else own

    def _root_moves(self, view: PlayerView, legal: list[int], widen: int) -> set[int] | None:
        """The root moves the search may try: the heuristic's ``widen`` best where the game
        ranks them (every move it does not rank stays), else all (None)."""
        if not widen:
            return None
        ranking = rank_actions(self.game, self.heuristic, view)
        if ranking is None or len(ranking) <= widen:
            return None
        return set(ranking[:widen]) | (set(legal) - set(ranking))

    # -- root=paired -----------------------------------------------------------------------
    def _act_paired(
        self,
        view: PlayerView,
        legal: list[int],
        sample_rng: Any,
        iterations: int,
        guard: float,
        to_end: bool = False,
    ) -> int:
        """One-step rollout improvement of the heuristic (Tesauro and Galperin 1996), with
        common random numbers: each iteration draws one determinization and one rollout
        seed, and every candidate is played from that same state and continued by the same
        heuristic rollout; the reward differences to the heuristic's own move are paired,
        so the luck of the deal cancels. The heuristic's move is played unless the best
        candidate's mean advantage exceeds ``guard`` (and ``z`` standard errors); ``to_end``:
        every rollout goes to the end of the game."""
        options = self.options
        own = self._incumbent(view)
        candidates = [own] + [a for a in legal if a != own and self._root_allows(a)]
        self.last_iterations = 0
        self.last_advantages = {own: 0.0}
        if len(candidates) == 1:
            return own
        gains: list[list[float]] = [[] for _ in candidates]
        timed = options.seconds and not to_end  # late decisions: iterations alone bound them
        deadline = time.perf_counter() + options.seconds if timed else math.inf
        limit = iterations or math.inf
        done = 0
        while done < limit and (done == 0 or time.perf_counter() < deadline):
            state = self.rules.sample_state(view, sample_rng)
            values = self._paired_values(state, candidates, view.seat, to_end)
            for gain, value in zip(gains, values):
                gain.append(value - values[0])
            done += 1
        self.last_iterations = done
        self.last_advantages = {a: sum(g) / done for a, g in zip(candidates, gains)}
        self.last_paired = PairedEvidence(tuple(candidates), np.asarray(gains), guard, options.z)
        best = max(range(len(candidates)), key=lambda i: sum(gains[i]))
        if sum(gains[best]) / done <= guard or not _above_zero(gains[best], options.z):
            return own
        return candidates[best]

    def _paired_values(
        self, state: State, actions: list[int], seat: int, to_end: bool = False
    ) -> list[float]:
        """``seat``'s value of each action played from ``state`` (consumed) and continued by
        the same heuristic rollout (one rollout seed for all: common random numbers)."""
        rollout_seed = self.py_rng.getrandbits(32)
        values = []
        for i, action in enumerate(actions):
            branch = state if i == len(actions) - 1 else state.clone()
            branch.apply(action)
            if not self.native:  # (a native rollout draws from rollout_seed alone)
                self.heuristic.reset(rollout_seed)
                self.py_rng_rollout = random.Random(rollout_seed)
            values.append(self._rollout_value(branch, seat, to_end, rollout_seed))
        return values

    def _root_allows(self, action: int) -> bool:
        return self.root_moves is None or action in self.root_moves

    def _rollout_value(
        self, state: State, seat: int, to_end: bool = False, rollout_seed: int = 0
    ) -> float:
        """The heuristic's continuation of ``state`` for ``depth`` decisions (every
        decision, forced ones too; ``to_end``: to the end of the game), then the static
        evaluation; at the game's end the outcome, mixed with the score margin by
        ``margin``."""
        options = self.options
        heuristic = self.heuristic
        rng = self.py_rng_rollout
        depth = math.inf if to_end else options.depth or math.inf
        if options.finish and self.turns_left is not None:
            if self.turns_left(state) <= options.finish:
                depth = math.inf
        if self.native and (options.rollout == "heuristic" or to_end):
            self._native_rollout(state, "heuristic", depth, rollout_seed)
        elif options.rollout == "heuristic" or to_end:
            steps = 0
            while not state.is_terminal() and (steps < depth or not self._quiet(state)):
                legal = state.legal_actions()
                if len(legal) == 1:
                    action = legal[0]
                elif options.epsilon and rng.random() < options.epsilon:
                    action = legal[rng.randrange(len(legal))]
                else:
                    action = heuristic.act(state.view(state.current_player))
                state.apply(action)
                steps += 1
        if not state.is_terminal():
            return self._evaluate(state)[seat]
        outcome = state.returns()[seat]
        if not options.margin:
            return outcome
        scores = state.scores()
        lead = scores[seat] - max(s for i, s in enumerate(scores) if i != seat)
        scale = game_settings(self.game).score_scale
        return (1 - options.margin) * outcome + options.margin * math.tanh(lead / scale)

    # -- one iteration --------------------------------------------------------------------
    def _iterate(self, root: _Node, state: State) -> None:
        path = [root]
        node = root
        c = self.options.c
        pw = self.options.pw
        rng = self.py_rng
        while not state.is_terminal():
            mover = state.current_player
            legal = state.legal_actions()
            if node is root and self.root_moves is not None:
                legal = [a for a in legal if a in self.root_moves]
            children = node.children
            untried = [a for a in legal if a not in children]
            if untried and (
                not pw
                or len(children) < 1 + pw * math.sqrt(node.visits)
                or not any(a in children for a in legal)
            ):
                action = self._first_move(state, untried)
                child = _Node(mover)
                for a in legal:
                    other = children.get(a)
                    if other is not None:
                        other.available += 1
                children[action] = child
                state.apply(action)
                path.append(child)
                break
            best_value = -math.inf
            best_action = -1
            for a in legal:
                child = children.get(a)
                if child is None:
                    continue
                child.available += 1
                value = child.total / child.visits + c * math.sqrt(
                    math.log(child.available) / child.visits
                )
                if value > best_value or (value == best_value and rng.random() < 0.5):
                    best_value, best_action = value, a
            node = children[best_action]
            state.apply(best_action)
            path.append(node)
        rewards = self._leaf_rewards(state)
        for visited in path:
            visited.visits += 1
            visited.total += rewards[visited.mover]

    def _first_move(self, state: State, untried: list[int]) -> int:
        if self.options.first and len(untried) > 1:
            choice = self._heuristic_move(state)
            if choice in untried:
                return choice
        return untried[self.py_rng.randrange(len(untried))]

    def _leaf_rewards(self, state: State) -> list[float]:
        options = self.options
        if options.rollout == "none":
            return state.returns() if state.is_terminal() else self._evaluate(state)
        rng = self.py_rng
        depth = options.depth or math.inf
        if self.native:
            self._native_rollout(state, options.rollout, depth, rng.getrandbits(63))
            return state.returns() if state.is_terminal() else self._evaluate(state)
        heuristic = self.heuristic if options.rollout == "heuristic" else None
        steps = 0
        while not state.is_terminal():
            if steps >= depth and self._quiet(state):
                return self._evaluate(state)
            legal = state.legal_actions()
            if len(legal) == 1:
                action = legal[0]
            elif heuristic is None or rng.random() < options.epsilon:
                action = legal[rng.randrange(len(legal))]
            else:
                action = heuristic.act(state.view(state.current_player))
            state.apply(action)
            steps += 1
        return state.returns()

    def _native_rollout(self, state: State, policy: str, depth: float, seed: int) -> None:
        """The rollout in compiled code: ``depth`` decisions (every game to the end when
        infinite) of ``policy``, then on, a decision at a time, to a quiet phase."""
        native = state._native
        state._mask = None
        if policy == "heuristic":
            epsilon = self.options.epsilon

            def play(seed: int, depth: int) -> None:
                native.heuristic_playout(seed, depth, epsilon)
        else:

            def play(seed: int, depth: int) -> None:
                native.playout(seed, depth)

        if depth == math.inf:
            play(seed, 0)
            return
        play(seed, int(depth))
        extra = 0
        while not native.is_terminal() and not self._quiet(state):
            extra += 1
            play(seed + extra, 1)

    def _evaluate(self, state: State) -> list[float]:
        """The static evaluation of an unfinished position."""
        return self.evaluate(state)

    def _heuristic_move(self, state: State) -> int:
        """The heuristic's move for the seat to decide in a determinization."""
        if self.native:
            return state._native.heuristic_action(state.current_player, self.heuristic.native_rng)
        return self.heuristic.act(state.view(state.current_player))

    def _quiet(self, state: State) -> bool:
        """Whether a rollout past its ``depth`` may stop here for the static evaluation."""
        return self.quiet_phases is None or state._phase_name() in self.quiet_phases

    def __repr__(self) -> str:
        return f"ISMCTSAgent({self.game!r}, {self.options})"


def _native_leaf_values(state: State) -> list[float]:
    """``leaf_evaluator(game)(state)`` computed by the native engine."""
    return state._native.leaf_values()


def _named_phases(
    game: str, known: tuple[str, ...], text: str, option: str = "phases"
) -> frozenset[str] | None:
    """The phases of option ``phases`` or ``quiet`` (``"BID+BET"``), checked against the
    game's; None when the option is empty."""
    if not text:
        return None
    names = [name.strip() for name in text.split("+")]
    unknown = [name for name in names if name not in known]
    if unknown:
        raise InvalidConfigError(
            f"ismcts option {option}={text!r}: {', '.join(map(repr, unknown))} is not a "
            f"decision phase of {game}; allowed (joined by +): {', '.join(known)}"
        )
    return frozenset(names)


@dataclass(frozen=True)
class PairedEvidence:
    """What a paired comparison (``root=paired``, ``late``, ``mid``) decided from: the
    candidates (the heuristic's move first), each one's paired gains over it on every
    common determinization (``gains[candidate, determinization]``), and the decision rule's
    ``guard`` and ``z``."""

    candidates: tuple[int, ...]
    gains: np.ndarray
    guard: float
    z: float

    def choice_shares(self, resamples: int, rng: np.random.Generator) -> dict[int, float]:
        """How often the same decision rule picks each candidate when the determinizations
        are drawn again from those it saw (a bootstrap of the gains' columns): a soft target
        that keeps the search's move where its evidence is clear and spreads over the moves
        it could not tell apart. Candidates never picked are left out."""
        gains = self.gains
        count = gains.shape[1]
        drawn = gains[:, rng.integers(count, size=(resamples, count))]  # [C, B, n]
        means = drawn.mean(axis=2)
        best = means.argmax(axis=0)  # the first of equal means, as the search's max does
        picked = drawn[best, np.arange(resamples)]  # [B, n]
        mean = picked.mean(axis=1)
        clear = (mean > self.guard) & (mean > 0)
        if self.z:
            spread = picked.std(axis=1, ddof=1) if count > 1 else np.full(resamples, np.inf)
            clear &= mean > self.z * spread / math.sqrt(count)
        choices = np.where(clear, best, 0)
        shares = np.bincount(choices, minlength=len(self.candidates)) / resamples
        return {a: float(s) for a, s in zip(self.candidates, shares) if s > 0}


def _above_zero(samples: list[float], z: float) -> bool:
    """Whether the mean of ``samples`` is above zero, and ``z`` standard errors above it."""
    n = len(samples)
    mean = sum(samples) / n
    if mean <= 0:
        return False
    if not z:
        return True
    if n < 2:
        return False
    variance = sum((x - mean) ** 2 for x in samples) / (n - 1)
    return mean > z * math.sqrt(variance / n)


def _rank(node: _Node | None) -> tuple[int, float]:
    if node is None:
        return (-1, 0.0)
    return (node.visits, node.total / node.visits if node.visits else 0.0)


def make_search_agent(options_text: str, game: str, seed: int | None = None) -> ISMCTSAgent:
    """The agent of spec ``ismcts`` (``options_text`` empty) or ``ismcts:<options>``."""
    options, spec_seed = parse_options(options_text, game)
    return ISMCTSAgent(game, options, seed=spec_seed if spec_seed is not None else seed)
