"""Gumbel root search: a policy-value network improved at a small budget of simulations.

The root search of Gumbel AlphaZero (Danihelka et al. 2022) over determinizations of the
agent's own view, as plain data a decision:

1. **Candidates.** The network reads the view once: logits over the legal moves and the
   seat's value. Moves that leave the same position (Carcassonne's rotations of a symmetric
   tile: the same view after the move) are one candidate. ``considered`` candidates are drawn
   without replacement by Gumbel-top-k: the largest ``g(a) + logits(a)``, with ``g`` drawn
   from Gumbel(0, 1) anew each decision.
2. **Sequential Halving.** The ``simulations`` are spread over ceil(log2(considered)) rounds.
   In a round every remaining candidate is played from the same determinizations, each
   followed by the same rollout (the game's rollout policy on the engine, one seed per
   determinization: the common random numbers of the plain search's paired checks). A
   rollout that ends the game gives the outcome; one cut short after ``depth`` decisions is
   valued by the network's value head, which reads all the round's positions in one pass.
   The better half, by ``g(a) + logits(a) + sigma(q(a))``, goes on to the next round.
3. **The move** is the last candidate standing (the best by that score).

``sigma(q) = (c_visit + max visits) * c_scale * q``, with ``q`` rescaled to [0, 1] over the
candidates (the paper's monotone transform). The decision's **policy target** is the
*completed-Q* improved policy ``softmax(logits + sigma(completed q))``: a compared move's
mean value, and for a move not compared the mixed value of the paper (the network's value
and the compared moves' values weighed by the policy); equivalent moves share their target
equally. Its **root value** is the target's expectation of the completed values.
:attr:`GumbelAgent.last_target` and :attr:`GumbelAgent.last_value` keep both for expert
iteration's labels.

The agent spec is ``gumbel:<network>[,simulations=N][,considered=M][,depth=D][,rollout=
heuristic|random][,noise=..][,seconds=S][,c_visit=..][,c_scale=..][,device=..][,seed=..]``; the
network as for ``net:``.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, fields, replace
from typing import Any

import numpy as np

from boardgame_envs.agents.base import GUMBEL_OPTIONS
from boardgame_envs.agents.heuristic import make_heuristic
from boardgame_envs.agents.policy_value import (
    HoldsNet,
    PolicyValueNet,
    absolute_values,
    check_game,
    check_table,
    load_net,
    one_blas_thread,
    parse_net_spec,
)
from boardgame_envs.agents.search import ISMCTSAgent, default_options
from boardgame_envs.agents.settings import has_heuristic
from boardgame_envs.core.rules import InvalidConfigError, PlayerView, State


@dataclass(frozen=True)
class GumbelOptions:
    """A decision's budget and the transform of its values (see the module docstring)."""

    simulations: int = 200
    """positions valued a decision, over every round (at least one per candidate a round)"""
    considered: int = 16
    """root candidates drawn by Gumbel-top-k"""
    depth: int = 0
    """rollout decisions after a candidate before the value head reads the position (0: the
    rollout goes to the game's end and the outcome is the value)"""
    rollout: str = "heuristic"
    """the rollout's policy: heuristic (the game's, with the plain search's epsilon) or random"""
    noise: float = 0.0
    """the Gumbel noise's scale: 1 draws the candidates and the move from the improved
    policy, as the paper does in training; 0 (for play) takes the policy's most likely
    candidates and the best one"""
    seconds: float = 0.0
    """a decision's time cap, checked between rounds (0: simulations alone, the same on every
    machine)"""
    c_visit: float = 50.0
    c_scale: float = 0.1


#: The spec's option names: the options' and ``device`` and ``seed`` (kept in
#: ``boardgame_envs.agents.base`` too, so that splitting a list of specs needs no torch).
SPEC_OPTIONS = (*(f.name for f in fields(GumbelOptions)), "device", "seed")
assert SPEC_OPTIONS == GUMBEL_OPTIONS, "agents/base.py's GUMBEL_OPTIONS must name the same"
ROLLOUTS = ("heuristic", "random")


def check_options(options: GumbelOptions, label: str) -> None:
    """``InvalidConfigError`` naming the first option out of range."""
    checks = {
        "simulations": (options.simulations, int, 1),
        "considered": (options.considered, int, 1),
        "depth": (options.depth, int, 0),
        "seconds": (options.seconds, (int, float), 0),
        "noise": (options.noise, (int, float), 0),
        "c_visit": (options.c_visit, (int, float), 0),
        "c_scale": (options.c_scale, (int, float), 0),
    }
    for name, (value, kinds, low) in checks.items():
        good = isinstance(value, kinds) and not isinstance(value, bool) and value >= low
        if not good or not math.isfinite(value):
            kind = "an integer" if kinds is int else "a number"
            raise InvalidConfigError(
                f"option {name}={value!r} of agent {label!r} is not allowed; allowed: {kind} "
                f">= {low}"
            )
    if options.rollout not in ROLLOUTS:
        raise InvalidConfigError(
            f"option rollout={options.rollout!r} of agent {label!r} is not allowed; allowed: "
            + ", ".join(ROLLOUTS)
        )


class GumbelAgent(HoldsNet, ISMCTSAgent):
    """The Gumbel root search of the module docstring. It shares the plain search's
    determinizer, engine and rollouts (its ``options`` are the game's search defaults, for
    the rollout's epsilon and quiet phases)."""

    name = "gumbel"

    def __init__(
        self,
        game: str,
        net: PolicyValueNet,
        options: GumbelOptions | None = None,
        seed: int | None = None,
        engine: str | None = None,
        label: str = "gumbel",
    ) -> None:
        check_game(net, game, label)
        self.gumbel = options or GumbelOptions()
        check_options(self.gumbel, label)
        # the plain search's defaults give the rollouts' epsilon and quiet phases; its time
        # cap is this search's own (so that a reproducibility check reads the right one)
        search = replace(default_options(game), seconds=self.gumbel.seconds)
        super().__init__(game, search, seed=seed, engine=engine)
        if self.gumbel.rollout == "heuristic" and self.heuristic is None and has_heuristic(game):
            self.heuristic = make_heuristic(game, engine=self.rules.engine)
        self.hint_engine = self.rules.engine
        self.net = net
        self.label = label
        #: the last decision's improved policy (float32[A], zero off the legal moves) and its
        #: root value for the deciding seat, in [-1, 1]
        self.last_target: np.ndarray | None = None
        self.last_value = 0.0
        #: the last decision's simulations and network passes (for reports and tests)
        self.last_simulations = 0
        self.last_passes = 0

    def act(self, view: PlayerView) -> int:
        legal = view.legal_actions()
        if not legal:
            raise InvalidConfigError(f"seat {view.seat} has no legal action in this view")
        check_table(self.net, view, self.label)
        with one_blas_thread():
            return self._search(view, legal)

    # -- one decision --------------------------------------------------------------------------
    def _search(self, view: PlayerView, legal: list[int]) -> int:
        options = self.gumbel
        decision_seed = int(self.rng.integers(2**63))
        sample_rng = self._sample_generator(view, decision_seed)
        self.py_rng = random.Random(decision_seed)
        if self.heuristic is not None:
            self.heuristic.reset(decision_seed % 2**32)
        probabilities, values = self.net_forward(*self.encode(view))
        self.last_passes = 1
        self.last_simulations = 0
        logits = np.log(np.maximum(probabilities, 1e-30)).astype(np.float64)
        root_value = float(absolute_values(values, view.seat)[view.seat])
        groups = equivalent_moves(self.rules.sample_state(view, sample_rng), legal, view.seat)
        representatives = [group[0] for group in groups]
        gumbel = options.noise * np.random.default_rng(decision_seed).gumbel(size=len(logits))
        q_sum: dict[int, float] = {}
        visits: dict[int, int] = {}
        remaining = sorted(representatives, key=lambda a: -(gumbel[a] + logits[a]))
        remaining = remaining[: min(options.considered, len(remaining))]
        if len(remaining) > 1:
            remaining = self._halve(view, remaining, logits, gumbel, q_sum, visits, sample_rng)
        completed = completed_values(logits, root_value, q_sum, visits, representatives)
        sigma = self._sigma(completed, visits)
        choice = max(remaining, key=lambda a: gumbel[a] + logits[a] + sigma.get(a, 0.0))
        self.last_target = shared_target(logits, sigma, groups, len(logits))
        self.last_value = float(sum(self.last_target[a] * completed[a] for a in completed))
        return choice

    def _halve(
        self,
        view: PlayerView,
        remaining: list[int],
        logits: np.ndarray,
        gumbel: np.ndarray,
        q_sum: dict[int, float],
        visits: dict[int, int],
        sample_rng: Any,
    ) -> list[int]:
        """Sequential Halving over ``remaining`` (the candidates, best first): each round
        values every candidate on the round's shared determinizations, then keeps the
        better half; returns the last ones standing."""
        options = self.gumbel
        rounds = max(1, math.ceil(math.log2(len(remaining))))
        deadline = time.perf_counter() + options.seconds if options.seconds else math.inf
        for done in range(rounds):
            per_candidate = max(1, options.simulations // (rounds * len(remaining)))
            values = self._round(view, remaining, per_candidate, sample_rng)
            for action, value in zip(remaining, values):
                q_sum[action] = q_sum.get(action, 0.0) + sum(value)
                visits[action] = visits.get(action, 0) + len(value)
            completed = {a: q_sum[a] / visits[a] for a in q_sum}
            sigma = self._sigma(completed, visits)
            remaining = sorted(remaining, key=lambda a: -(gumbel[a] + logits[a] + sigma[a]))
            remaining = remaining[: max(1, math.ceil(len(remaining) / 2))]
            if len(remaining) == 1 or (done > 0 and time.perf_counter() > deadline):
                break
        return remaining

    def _round(
        self, view: PlayerView, candidates: list[int], count: int, sample_rng: Any
    ) -> list[list[float]]:
        """Each candidate's values (for the deciding seat) on ``count`` determinizations,
        the same for every candidate, each followed by one rollout seed: one network pass
        for all of the round's unfinished positions."""
        seat = view.seat
        positions: list[tuple[int, State]] = []
        for _ in range(count):
            state = self.rules.sample_state(view, sample_rng)
            rollout_seed = self.py_rng.getrandbits(63)
            for i, action in enumerate(candidates):
                branch = state if i == len(candidates) - 1 else state.clone()
                branch.apply(action)
                self._roll_out(branch, rollout_seed)
                positions.append((i, branch))
        self.last_simulations += len(positions)
        values: list[list[float]] = [[] for _ in candidates]
        unfinished = [(i, s) for i, s in positions if not s.is_terminal()]
        for i, s in positions:
            if s.is_terminal():
                values[i].append(float(s.returns()[seat]))
        if unfinished:
            movers = [s.current_player for _, s in unfinished]
            encoded = [self.encode(s.view(m)) for (_, s), m in zip(unfinished, movers)]
            _, read = self.net_forward_batch(
                np.stack([observation for observation, _ in encoded]),
                np.stack([mask for _, mask in encoded]),
            )
            self.last_passes += 1
            for (i, _), mover, relative in zip(unfinished, movers, read):
                values[i].append(float(absolute_values(relative, mover)[seat]))
        return values

    def _roll_out(self, state: State, seed: int) -> None:
        """``depth`` decisions of the rollout policy from ``state`` (in place; 0: to the
        game's end)."""
        depth = self.gumbel.depth or math.inf
        if state.is_terminal():
            return
        policy = self.gumbel.rollout if self.heuristic is not None else "random"
        if self.native:
            self._native_rollout(state, policy, depth, seed)
            return
        rng = random.Random(seed)
        if self.heuristic is not None:
            self.heuristic.reset(seed % 2**32)
        steps = 0
        while steps < depth and not state.is_terminal():
            steps += 1
            legal = state.legal_actions()
            if policy == "heuristic" and len(legal) > 1 and rng.random() >= self.options.epsilon:
                action = self.heuristic.act(state.view(state.current_player))
            else:
                action = legal[rng.randrange(len(legal))]
            state.apply(action)

    def _sigma(self, completed: dict[int, float], visits: dict[int, int]) -> dict[int, float]:
        """The paper's ``sigma`` of each completed value, the values rescaled to [0, 1] over
        the candidates (all 0.5 where they are equal)."""
        if not completed:
            return {}
        low, high = min(completed.values()), max(completed.values())
        scale = (self.gumbel.c_visit + max(visits.values(), default=0)) * self.gumbel.c_scale
        span = high - low
        return {a: scale * ((q - low) / span if span > 0 else 0.5) for a, q in completed.items()}

    def __repr__(self) -> str:
        return f"GumbelAgent({self.label!r}, {self.gumbel})"


# -- the pieces, as functions of plain data (tested on their own) ---------------------------------
def equivalent_moves(state: State, legal: list[int], seat: int) -> list[list[int]]:
    """``legal`` grouped by the position each leaves in ``state`` as ``seat`` sees it after
    the move (moves of one group are the same move: a symmetric tile's rotations), each
    group in the order of ``legal``, the groups in the order of their first move."""
    groups: dict[bytes, list[int]] = {}
    for action in legal:
        after = state.clone()
        after.apply(action)
        key = np.asarray(after.view(seat).observation()).tobytes()
        groups.setdefault(key + bytes([after.current_player % 256]), []).append(action)
    return list(groups.values())


def completed_values(
    logits: np.ndarray,
    root_value: float,
    q_sum: dict[int, float],
    visits: dict[int, int],
    candidates: list[int],
) -> dict[int, float]:
    """Each candidate's completed value: its mean value where it was compared, else the
    mixed value (the network's root value and the compared moves' values weighed by the
    policy's probabilities among them, as many times as they were visited)."""
    compared = [a for a in candidates if visits.get(a)]
    total_visits = sum(visits[a] for a in compared)
    if compared:
        weights = np.exp(logits[compared] - logits[compared].max())
        weights /= weights.sum()
        mean_q = sum(w * q_sum[a] / visits[a] for w, a in zip(weights, compared))
        mixed = (root_value + total_visits * mean_q) / (1 + total_visits)
    else:
        mixed = root_value
    return {a: (q_sum[a] / visits[a] if visits.get(a) else mixed) for a in candidates}


def shared_target(
    logits: np.ndarray, sigma: dict[int, float], groups: list[list[int]], size: int
) -> np.ndarray:
    """float32[size]: ``softmax(logits + sigma)`` over the groups' first moves (a group's
    logit is the log of its moves' summed probability), each group's share split equally
    among its moves; zero elsewhere. Sums to 1."""
    group_logits = np.array(
        [np.logaddexp.reduce(logits[group]) + sigma.get(group[0], 0.0) for group in groups]
    )
    shares = np.exp(group_logits - group_logits.max())
    shares /= shares.sum()
    target = np.zeros(size, dtype=np.float64)
    for group, share in zip(groups, shares):
        target[group] = share / len(group)
    return (target / target.sum()).astype(np.float32)


def make_gumbel_agent(spec: str, game: str, seed: int | None = None) -> GumbelAgent:
    """The agent of ``<network>[,options]``, what follows ``gumbel:`` in an agent spec."""
    label = f"gumbel:{spec}"
    source, given = parse_net_spec("gumbel", spec, SPEC_OPTIONS)
    values: dict[str, Any] = {}
    for f in fields(GumbelOptions):
        if f.name in given:
            values[f.name] = _parsed(f.name, given[f.name], type(f.default), label)
    spec_seed = _parsed("seed", given["seed"], int, label) if "seed" in given else None
    net, _ = load_net(source, game=game, device=given.get("device", "cpu"))
    return GumbelAgent(
        game,
        net,
        GumbelOptions(**values),
        seed=spec_seed if spec_seed is not None else seed,
        label=label,
    )


def _parsed(name: str, text: str, kind: type, label: str) -> Any:
    if kind is str:
        return text
    try:
        return kind(text)
    except ValueError:
        word = "an integer" if kind is int else "a number"
        raise InvalidConfigError(
            f"option {name}={text!r} of agent {label!r} is not {word}; allowed: {word}"
        ) from None
