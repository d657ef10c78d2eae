"""The search guided by a policy-value network (ExIt / AlphaZero style ISMCTS).

:class:`NetSearchAgent` is the ISMCTS of :mod:`boardgame_envs.agents.search` (determinizations of
its own view, one tree keyed by the actions played, availability counts, the same ``verify``,
``guard``, ``late`` and ``phases`` machinery) with a
:class:`boardgame_envs.agents.policy_value.PolicyValueNet`
inside the tree:

* **prior**: the first time an iteration reaches a node, the network reads the MOVER's view
  of that determinization, ``state.view(state.current_player)``, and its move probabilities
  are kept in the node. Each later pass renormalizes them over the actions legal in its own
  determinization (an action that was not legal the first time gets the uniform share
  ``1 / legal`` of that first time). Selection is PUCT with ISMCTS's availability counts::

      score(a) = Q(a) + prior * P(a) * sqrt(available(a)) / (1 + visits(a))

  where an untried action has Q = 0, no visits and is available as often as its node was
  passed (plus this pass): untried actions compete through their prior alone, so the tree
  grows where the network points first.
* **leaf value**: the network's value head on the leaf mover's view (one return per seat, in
  the view's relative order, turned back into seat order), mixed with the rollout's reward
  by ``value``: ``value * network + (1 - value) * rollout``; ``value=1`` runs no rollout at
  all (the cheapest iteration: one forward pass), ``value=0`` keeps the rollouts alone.

* **incumbent**: the move a departure must beat where a check overrules the tree (``guard``,
  ``verify``) or where the root compares moves by paired rollouts (``root=paired``): the
  heuristic's, as in ismcts, or (``incumbent=net``) the network's most likely legal move;
  ``root=paired,incumbent=net`` is a one-step rollout improvement of the network's policy.

* **batch**: with ``batch=N`` > 1, N iterations go down the tree before the network reads
  their N leaves in one pass (on a GPU, one transfer and one kernel launch per layer for
  all of them). Each node an iteration passes counts its visit at once, in the
  exploration terms only (WU-UCT's unobserved visits: the mean value waits for the leaf's
  value), so the batch's iterations spread over the tree instead of all taking the same
  path; a leaf two of them reach is read twice, its first reading kept as its prior.
  ``batch=1`` (the default) is the one-at-a-time search.

The move played is the root action visited most, as in ISMCTS. The agent spec is
``ismcts-net:<game or path>[,<ismcts options>][,prior=<weight>][,value=<0..1>]
[,incumbent=heuristic|net][,batch=N][,device=...]``
(the network as for ``net:``; the ismcts options of :mod:`boardgame_envs.agents.search`); its
defaults per game are :func:`net_search_defaults`. :func:`search_policy_target` turns a decision
into a training target (the root's visit counts, or the shares of a paired comparison's
moves over resamples of its determinizations).
"""

from __future__ import annotations

import math
import time
from dataclasses import fields, replace
from typing import Any

import numpy as np

from boardgame_envs.agents.base import NET_SEARCH_OPTIONS, Agent
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
from boardgame_envs.agents.search import (
    OPTIONS,
    ISMCTSAgent,
    SearchOptions,
    _Node,
    default_options,
    parse_option_values,
)
from boardgame_envs.agents.settings import game_settings
from boardgame_envs.core.rules import InvalidConfigError, PlayerView, State

#: The network's part of the defaults: the prior's weight (PUCT's c) and the share of the
#: leaf value taken from the value head (the rest from the rollout).
NETWORK_DEFAULTS: dict[str, Any] = {
    "prior": 1.5,
    "value": 0.5,
    "incumbent": "heuristic",
    "batch": 1,
}
#: The largest ``batch``: the iterations of a batch do not learn from each other's values.
MAX_BATCH = 256
#: The move a departure must beat (``guard``, ``verify``, ``root=paired``): the heuristic's,
#: as in ismcts, or the network's own (its policy's most likely legal move).
INCUMBENTS = ("heuristic", "net")


def net_search_defaults(game: str) -> dict[str, Any]:
    """The ``ismcts-net`` defaults of ``game``: its ismcts defaults with its settings'
    ``net_search`` changes and the network's prior and value added."""
    settings = game_settings(game)
    return {**settings.search, **settings.net_search, **NETWORK_DEFAULTS}


_SEARCH_FIELDS = frozenset(f.name for f in fields(SearchOptions))


class NetSearchAgent(HoldsNet, ISMCTSAgent):
    """ISMCTS with a network's policy as the tree's prior and its value at the leaves
    (see the module docstring). ``prior`` > 0 weighs the prior in PUCT; ``value`` in
    [0, 1] is the network's share of a leaf's value (1: no rollout)."""

    name = "ismcts-net"

    def __init__(
        self,
        game: str,
        net: PolicyValueNet,
        options: SearchOptions | None = None,
        seed: int | None = None,
        prior: float = NETWORK_DEFAULTS["prior"],
        value: float = NETWORK_DEFAULTS["value"],
        incumbent: str = NETWORK_DEFAULTS["incumbent"],
        batch: int = NETWORK_DEFAULTS["batch"],
        heuristic: Agent | None = None,
        engine: str | None = None,
        label: str = "ismcts-net",
    ) -> None:
        check_game(net, game, label)
        _check_weight("prior", prior, label, low=0.0, high=None)
        _check_weight("value", value, label, low=0.0, high=1.0)
        if isinstance(batch, bool) or not isinstance(batch, int) or not 1 <= batch <= MAX_BATCH:
            raise InvalidConfigError(
                f"option batch={batch!r} of agent {label!r} is not allowed; allowed: an "
                f"integer from 1 to {MAX_BATCH}"
            )
        if incumbent not in INCUMBENTS:
            raise InvalidConfigError(
                f"option incumbent={incumbent!r} of agent {label!r} is not allowed; allowed: "
                + ", ".join(INCUMBENTS)
            )
        super().__init__(game, options, seed=seed, heuristic=heuristic, engine=engine)
        self.hint_engine = self.rules.engine  # the determinizations' engine
        self.net = net
        self.prior_weight = float(prior)
        self.value_weight = float(value)
        self.incumbent = incumbent
        self.batch = batch
        self.label = label
        #: {node: the prior of its actions}, for the decision being taken
        self.node_priors: dict[_Node, np.ndarray] = {}
        #: views the network read in the last decision, and in how many passes (equal
        #: unless ``batch`` > 1; for reports and tests)
        self.last_evaluations = 0
        self.last_passes = 0

    def act(self, view: PlayerView) -> int:
        if len(view.legal_actions()) > 1:
            check_table(self.net, view, self.label)
        self.node_priors = {}
        self.last_evaluations = self.last_passes = 0
        try:
            with one_blas_thread():
                return super().act(view)
        finally:
            self.node_priors = {}  # the tree stays in last_root; its priors are not needed

    def _incumbent(self, view: PlayerView) -> int:
        if self.incumbent == "heuristic":
            return super()._incumbent(view)
        probabilities, _ = self.net_forward(*self.encode(view))
        legal = view.legal_actions()
        return legal[int(np.argmax(probabilities[legal]))]

    # -- one iteration: PUCT selection, one new node, the network's (and rollout's) value --------
    def _iterate(self, root: _Node, state: State) -> None:
        path = [root]
        node = root
        while not state.is_terminal():
            mover = state.current_player
            best_action = self._puct_choice(root, node, state, node.visits + 1)
            child = node.children.get(best_action)
            state.apply(best_action)
            if child is None:
                child = node.children[best_action] = _Node(mover)
                path.append(child)
                break
            node = child
            path.append(node)
        rewards = self._leaf_values(path[-1], state)
        for visited in path:
            visited.visits += 1
            visited.total += rewards[visited.mover]

    def _puct_choice(
        self,
        root: _Node,
        node: _Node,
        state: State,
        passes: int,
        in_flight: dict[_Node, int] | None = None,
    ) -> int:
        """The action PUCT picks at ``node`` in ``state`` (the module docstring's score), each
        child passed counted as available once more. ``passes``: the node's visits, this one
        included; ``in_flight`` (a batch): the visits whose values are not back yet, which
        the mean values leave out."""
        legal = state.legal_actions()
        if node is root and self.root_moves is not None:
            legal = [a for a in legal if a in self.root_moves]
        priors = self._priors(node, state, legal)
        children = node.children
        weight = self.prior_weight
        rng = self.py_rng
        untried_reach = math.sqrt(passes)
        best_value = -math.inf
        best_action = -1
        for a, p in zip(legal, priors):
            child = children.get(a)
            if child is None:
                value = weight * p * untried_reach
            else:
                child.available += 1
                reach = math.sqrt(child.available) / (1 + child.visits)
                back = child.visits - (in_flight.get(child, 0) if in_flight else 0)
                value = (child.total / back if back else 0.0) + weight * p * reach
            if value > best_value or (value == best_value and rng.random() < 0.5):
                best_value, best_action = value, a
        return best_action

    def _priors(self, node: _Node, state: State, legal: list[int]) -> list[float]:
        """The prior of each of ``legal`` at ``node``: the network's, kept from the node's
        first evaluation, renormalized over the actions legal here."""
        stored = self.node_priors.get(node)
        if stored is None:
            stored, _ = self._network(state)
            self.node_priors[node] = stored
        chosen = stored[legal]
        total = chosen.sum()
        return (chosen / total).tolist() if total > 0 else [1.0 / len(legal)] * len(legal)

    def _network(self, state: State) -> tuple[np.ndarray, list[float]]:
        """(the prior of every action, each seat's value) from the network on the mover's
        view of ``state``: an action illegal here gets the uniform share of the legal ones
        (so a later determinization where it is legal still weighs it)."""
        mover = state.current_player
        observation, mask = self.encode(state.view(mover))
        probabilities, values = self.net_forward(observation, mask)
        self.last_evaluations += 1
        self.last_passes += 1
        return _priors_and_values(probabilities, values, mask, mover)

    def _leaf_values(self, leaf: _Node, state: State) -> list[float]:
        """Each seat's reward of the new node ``leaf``'s position ``state`` (consumed):
        ``value`` times the network's values plus the rest times the rollout's."""
        if state.is_terminal():
            return state.returns()
        weight = self.value_weight
        if not weight:
            return self._leaf_rewards(state)
        priors, values = self._network(state)
        self.node_priors[leaf] = priors  # the same evaluation is the new node's prior
        if weight == 1.0:
            return values
        rollout = self._leaf_rewards(state)
        return [weight * v + (1 - weight) * r for v, r in zip(values, rollout)]

    # -- batch > 1: the leaves of several iterations read by the network in one pass -----------
    def _grow(
        self, root: _Node, view: PlayerView, sample_rng: Any, iterations: int, deadline: float
    ) -> int:
        if self.batch == 1:
            return super()._grow(root, view, sample_rng, iterations, deadline)
        limit = iterations or math.inf
        done = 0
        while done < limit and (done == 0 or time.perf_counter() < deadline):
            size = int(min(self.batch, limit - done))
            in_flight: dict[_Node, int] = {}
            descents = [
                self._descend(root, self.rules.sample_state(view, sample_rng), in_flight)
                for _ in range(size)
            ]
            self._back_up(descents)
            done += size
        return done

    def _descend(
        self, root: _Node, state: State, in_flight: dict[_Node, int]
    ) -> tuple[list[_Node], State]:
        """One iteration's way down, as in :meth:`_iterate`, to a new node, a node another
        iteration of this batch added (whose value is not back yet), or the end of the game.
        Each node passed counts the visit at once (``in_flight`` until :meth:`_back_up`):
        the exploration terms see it, so that the batch's other iterations spread out, while
        the mean value is over the visits whose values are back (WU-UCT's unobserved
        visits; a virtual loss of -1 would push the tree off its best moves the more, the
        larger the batch)."""
        path = [root]
        root.visits += 1
        in_flight[root] = in_flight.get(root, 0) + 1
        node = root
        while not state.is_terminal():
            mover = state.current_player
            best_action = self._puct_choice(root, node, state, node.visits, in_flight)
            state.apply(best_action)
            child = node.children.get(best_action)
            added = child is None
            if added:
                child = node.children[best_action] = _Node(mover)
            child.visits += 1
            in_flight[child] = in_flight.get(child, 0) + 1
            path.append(child)
            if added or child.visits == in_flight[child]:  # new, or new in this batch
                break
            node = child
        return path, state

    def _back_up(self, descents: list[tuple[list[_Node], State]]) -> None:
        """The network reads every descent's leaf in one pass; each leaf's priors are kept
        (the first reading of a node, where two descents reached it), and each path gets
        its leaf's value (mixed with a rollout's as in :meth:`_leaf_values`)."""
        leaves = [i for i, (_, state) in enumerate(descents) if not state.is_terminal()]
        readings: dict[int, tuple[np.ndarray, list[float]]] = {}
        if leaves:
            movers = [descents[i][1].current_player for i in leaves]
            encoded = [self.encode(descents[i][1].view(m)) for i, m in zip(leaves, movers)]
            probabilities, values = self.net_forward_batch(
                np.stack([observation for observation, _ in encoded]),
                np.stack([mask for _, mask in encoded]),
            )
            self.last_evaluations += len(leaves)
            self.last_passes += 1
            for k, (i, mover) in enumerate(zip(leaves, movers)):
                readings[i] = _priors_and_values(probabilities[k], values[k], encoded[k][1], mover)
        weight = self.value_weight
        for i, (path, state) in enumerate(descents):
            if i not in readings:
                rewards = state.returns()
            else:
                priors, values = readings[i]
                self.node_priors.setdefault(path[-1], priors)
                if weight == 1.0:
                    rewards = values
                else:
                    rollout = self._leaf_rewards(state)
                    rewards = [weight * v + (1 - weight) * r for v, r in zip(values, rollout)]
            for visited in path:
                visited.total += rewards[visited.mover]

    def __repr__(self) -> str:
        return (
            f"NetSearchAgent({self.label!r}, prior={self.prior_weight}, "
            f"value={self.value_weight}, batch={self.batch}, {self.options})"
        )


def _priors_and_values(
    probabilities: np.ndarray, values: np.ndarray, mask: np.ndarray, mover: int
) -> tuple[np.ndarray, list[float]]:
    """(the prior of every action, each seat's value) from one reading of the mover's view:
    an action illegal there gets the uniform share of the legal ones (so that a later
    determinization where it is legal still weighs it)."""
    share = 1.0 / max(1, int(np.count_nonzero(mask)))
    priors = np.where(mask, probabilities, share).astype(np.float64)
    return priors, absolute_values(values, mover).tolist()


def _check_weight(name: str, value: Any, label: str, low: float, high: float | None) -> None:
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    inside = (
        number and math.isfinite(value) and (value > low if high is None else low <= value <= high)
    )
    if not inside:
        allowed = f"a number > {low:g}" if high is None else f"a number from {low:g} to {high:g}"
        raise InvalidConfigError(
            f"option {name}={value!r} of agent {label!r} is not allowed; allowed: {allowed}"
        )


def make_net_search_agent(spec: str, game: str, seed: int | None = None) -> NetSearchAgent:
    """The agent of ``<network>[,<ismcts options>][,prior=..][,value=..][,device=..]``,
    what follows ``ismcts-net:`` in an agent spec, over :func:`net_search_defaults`."""
    label = f"ismcts-net:{spec}"
    source, given = parse_net_spec("ismcts-net", spec, NET_SEARCH_OPTIONS + tuple(OPTIONS))
    net_given = {k: given.pop(k) for k in NET_SEARCH_OPTIONS if k in given}
    values = parse_option_values(",".join(f"{k}={v}" for k, v in given.items()))
    spec_seed = values.pop("seed", None)
    preset = values.pop("preset", None)
    defaults = net_search_defaults(game)
    if preset is None:
        searched = {k: v for k, v in defaults.items() if k in _SEARCH_FIELDS}
        base = replace(SearchOptions(), **searched)
    else:
        base = default_options(game, preset)
    options = replace(base, **values)
    prior = _parse_number("prior", net_given.get("prior"), defaults["prior"], label)
    value = _parse_number("value", net_given.get("value"), defaults["value"], label)
    _check_weight("prior", prior, label, low=0.0, high=None)
    _check_weight("value", value, label, low=0.0, high=1.0)
    incumbent = net_given.get("incumbent", defaults["incumbent"])
    batch = _parse_batch(net_given.get("batch"), defaults["batch"], label)
    net, _ = load_net(source, game=game, device=net_given.get("device", "cpu"))
    return NetSearchAgent(
        game,
        net,
        options,
        seed=spec_seed if spec_seed is not None else seed,
        prior=prior,
        value=value,
        incumbent=incumbent,
        batch=batch,
        label=label,
    )


def _parse_batch(text: str | None, default: int, label: str) -> int:
    if text is None:
        return default
    try:
        return int(text)
    except ValueError:
        raise InvalidConfigError(
            f"option batch={text!r} of agent {label!r} is not an integer; allowed: an integer "
            f"from 1 to {MAX_BATCH}"
        ) from None


def _parse_number(name: str, text: str | None, default: float, label: str) -> float:
    if text is None:
        return default
    try:
        return float(text)
    except ValueError:
        raise InvalidConfigError(
            f"option {name}={text!r} of agent {label!r} is not a number; allowed: "
            + ("a number > 0" if name == "prior" else "a number from 0 to 1")
        ) from None


#: Bootstrap resamples of a paired comparison's gains behind its soft target.
PAIRED_RESAMPLES = 64


def search_policy_target(
    agent: ISMCTSAgent,
    view: PlayerView,
    action: int,
    rng: np.random.Generator | None = None,
) -> np.ndarray:
    """The training target of the decision ``agent.act(view)`` just took, which played
    ``action``: float32[A] summing to 1 over the legal actions of ``view`` (zero on the
    others). Where the decision searched a tree (``agent.last_root``), each root action's
    share of the root's visits, if the tree's choice is the move played (where ``guard`` or
    ``verify`` overruled it, the visits do not describe the decision, and the target is the
    move played); where it compared moves by paired rollouts
    (``agent.last_paired``), how often its rule picks each move over resamples of its
    determinizations (:meth:`~boardgame_envs.agents.search.PairedEvidence.choice_shares`,
    drawn from ``rng``); else (a single legal move, a phase left to the heuristic) all on
    ``action``."""
    mask = view.legal_action_mask()
    if not 0 <= action < len(mask) or not mask[action]:
        raise InvalidConfigError(
            f"action {action} is not legal in this view of seat {view.seat}; legal: "
            f"{', '.join(map(str, np.flatnonzero(mask)))}"
        )
    target = np.zeros(len(mask), dtype=np.float32)
    root = agent.last_root
    overruled = agent.last_tree_choice != action
    if root is not None and root.mover == view.seat and root.children and not overruled:
        visits = {a: child.visits for a, child in root.children.items() if mask[a]}
        total = sum(visits.values())
        if total > 0 and len(visits) == len(root.children):
            for a, count in visits.items():
                target[a] = count / total
            return target
    paired = agent.last_paired
    if paired is not None and all(mask[a] for a in paired.candidates):
        generator = rng if rng is not None else np.random.default_rng(0)
        for a, share in paired.choice_shares(PAIRED_RESAMPLES, generator).items():
            target[a] = share
        return target
    target[action] = 1.0
    return target
