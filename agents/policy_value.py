"""A policy-value network over one seat's view, and the agent that plays its policy.

:class:`PolicyValueNet` reads what one seat sees, the flat observation
``observe(view, observe_mask=False)`` (:func:`encode_view`), and gives

* ``logits[B, A]``: a score per action, illegal actions at :data:`MASKED_LOGIT` (a large
  negative number, never NaN or infinite), so ``softmax(logits)`` is the move distribution;
* ``values[B, num_players]`` in [-1, 1] (tanh): the expected game return
  (``state.returns()``) of every seat, ordered RELATIVE to the viewing seat: index 0 is the
  view's own seat, 1 the next seat in turn order, and so on (:func:`relative_returns` and
  :func:`absolute_values` convert).

Its trunk is a small multilayer perceptron (``layers`` dense layers of ``hidden`` units,
ReLU). Games whose observation starts with board planes (``rules.planes_shape``: Carcassonne:
The Castle, Tahiti, Wasabi!) read the planes with a small convolutional network and the rest
with a dense layer first, as :class:`boardgame_envs.agents.networks.PlanesExtractor` does for PPO.

A network is saved as one ``.pt`` file (:func:`save_net`, loadable with
``torch.load(..., weights_only=True)``)::

    {"format": "boardgame-envs-net/1", "config": net.config, "state_dict": ..., "extra": ...}

and found (:func:`load_net`) by a path (a ``.pt`` file or a training run directory holding
``net.pt``) or by the name of a network shipped with the package (package data in
``agents/models/``): ``<game>`` (``<game>_net.pt``, 2 players) and ``<game>@<n>p``
(``<game>_<n>p_net.pt``, trained at n players). An existing path wins over a shipped name.

The agent spec ``net:<game or path>[,device=<device>][,sample=1]`` plays the network's
policy alone (:class:`NetAgent`): one forward pass a decision on its own view, the most
likely legal move (``sample=1``: a move drawn from the policy with the agent's own seed).
On the CPU a decision runs the network in numpy (:class:`NumpyForward`); on another
device, torch on one thread (see :func:`boardgame_envs.agents.ppo.one_torch_thread`).
"""

from __future__ import annotations

import functools
import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from boardgame_envs.agents.base import NET_SPEC_OPTIONS, Agent
from boardgame_envs.agents.ppo import (
    DEVICE,
    DEVICES_TEXT,
    models_folder,
    one_torch_thread,
    resolve_device,
)
from boardgame_envs.core.game import load_object
from boardgame_envs.core.rules import InvalidConfigError, PlayerView
from boardgame_envs.core.single_agent import observe

#: The ``format`` of a saved network file; a later, incompatible layout gets a new number.
NET_FORMAT = "boardgame-envs-net/1"
#: The logit of an illegal action: far below any real logit, finite in float32 and bfloat16.
MASKED_LOGIT = -1e9
#: The file a training run directory holds its latest network in.
RUN_NET_FILE = "net.pt"
#: What a network may read beside its seat's view: nothing (``none``), or the move the
#: game's heuristic would make there (``heuristic``), as a one-hot after the observation. A
#: hinted network's logits add ``hint_weight`` (learned, from :data:`INITIAL_HINT_WEIGHT`)
#: times that one-hot, so a fresh one plays the heuristic's moves and learns where to depart
#: from them: the residual policy of :mod:`boardgame_envs.agents.hinted`. Without it, networks
#: trained on the search's labels stayed far below the heuristic in Cornucopia and Wasabi!
#: (docs/results.md).
HINTS = ("none", "heuristic")
INITIAL_HINT_WEIGHT = 4.0
#: The options of the planes trunk (games with ``rules.planes_shape``) and their defaults.
SHAPE_OPTIONS: dict[str, int] = {
    "channels": 16,  # convolution channels (32 made a Tahiti decision 1.5 times slower)
    "depth": 1,  # 3x3 convolutions after the first 1x1 one
    "plane_features": 128,  # the flattened planes' dense layer
    "vector_features": 128,  # the rest of the observation's dense layer
}


class PolicyValueNet(nn.Module):
    """Policy logits and per-seat values from a seat's flat observation (module docstring).

    ``game`` and ``num_players`` fix the input (the game's observation), the policy's size
    (its action count) and the value head's (one value per seat). ``hidden`` and ``layers``
    shape the dense trunk; ``shape_options`` (:data:`SHAPE_OPTIONS`) the planes trunk of a
    game with planes. ``config`` holds everything needed to rebuild it."""

    def __init__(
        self,
        game: str,
        num_players: int,
        hidden: int = 256,
        layers: int = 2,
        hint: str = "none",
        **shape_options: int,
    ) -> None:
        super().__init__()
        from boardgame_envs.registry import make_rules

        rules = make_rules(game)
        _check_players(game, num_players, rules)
        _check_size("hidden", hidden, low=1)
        _check_size("layers", layers, low=1)
        if hint not in HINTS:
            raise InvalidConfigError(
                f"network option hint={hint!r} is not allowed; allowed: none or heuristic"
            )
        unknown = sorted(set(shape_options) - set(SHAPE_OPTIONS))
        if unknown:
            raise InvalidConfigError(
                f"network option {unknown[0]}={shape_options[unknown[0]]!r} is unknown; "
                f"allowed: hidden, layers, {', '.join(SHAPE_OPTIONS)}"
            )
        planes = None if rules.planes_shape is None else [int(n) for n in rules.planes_shape]
        shape = {**SHAPE_OPTIONS, **shape_options} if planes is not None else {}
        for name, value in shape.items():
            _check_size(name, value, low=0 if name == "depth" else 1)
        self.config: dict[str, Any] = {
            "game": game,
            "game_version": int(rules.version),
            "num_players": int(num_players),
            "hidden": int(hidden),
            "layers": int(layers),
            "observation_size": int(np.prod(rules.observation_shape))
            + (int(rules.action_size) if hint != "none" else 0),
            "action_size": int(rules.action_size),
            "hint": hint,
            "planes": planes,
            **{name: int(value) for name, value in shape.items()},
        }
        self.game = game
        self.num_players = int(num_players)
        self.observation_size = self.config["observation_size"]
        self.action_size = self.config["action_size"]
        if planes is None:
            self.features: nn.Module = nn.Identity()
            width = self.observation_size
        else:
            self.features = PlanesTrunk(self.observation_size, tuple(planes), **shape)
            width = shape["plane_features"] + shape["vector_features"]
        dense: list[nn.Module] = []
        for _ in range(layers):
            dense += [nn.Linear(width, hidden), nn.ReLU()]
            width = hidden
        self.trunk = nn.Sequential(*dense)
        self.policy_head = nn.Linear(hidden, self.action_size)
        self.value_head = nn.Linear(hidden, self.num_players)
        self.hint = hint
        self.hinted = hint != "none"
        if self.hinted:
            self.hint_weight = nn.Parameter(torch.tensor(INITIAL_HINT_WEIGHT))

    def forward(
        self, observations: torch.Tensor, masks: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """(logits[B, A] with illegal actions at :data:`MASKED_LOGIT`, values[B, players]
        in [-1, 1], relative to the viewing seat) of observations[B, obs] and bool
        masks[B, A]."""
        hidden = self.trunk(self.features(observations))
        logits = self.policy_head(hidden)
        if self.hinted:  # the one-hot hint ends the observation
            logits = logits + self.hint_weight * observations[:, -self.action_size :]
        masked = torch.full_like(logits, max(MASKED_LOGIT, torch.finfo(logits.dtype).min))
        logits = torch.where(masks.bool(), logits, masked)
        return logits, torch.tanh(self.value_head(hidden))

    @property
    def device(self) -> torch.device:
        return next(self.parameters()).device

    def evaluate(
        self, observations: np.ndarray, masks: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """(move probabilities[B, A], zero on illegal actions; values[B, players], relative
        to each viewing seat) of numpy observations[B, obs] and masks[B, A], without
        gradients (the caller picks torch's threads: see ``one_torch_thread``)."""
        with torch.inference_mode():
            device = self.device
            logits, values = self(
                torch.as_tensor(observations, dtype=torch.float32, device=device),
                torch.as_tensor(masks, dtype=torch.bool, device=device),
            )
            probabilities = torch.softmax(logits, dim=-1)
            return probabilities.cpu().numpy(), values.cpu().numpy()

    def evaluate_view(self, view: PlayerView) -> tuple[np.ndarray, np.ndarray]:
        """(move probabilities[A], values[players] relative to ``view.seat``) of one view."""
        observation, mask = encode_view(view)
        probabilities, values = self.evaluate(observation[None], mask[None])
        return probabilities[0], values[0]

    def __repr__(self) -> str:
        shape = ", ".join(f"{k}={v}" for k, v in self.config.items() if k != "game")
        return f"PolicyValueNet({self.game!r}, {shape})"


class PlanesTrunk(nn.Module):
    """Board planes -> a 1x1 convolution (``channels``), ``depth`` 3x3 convolutions (ReLU
    each), flattened to ``plane_features`` by a dense layer; the rest of the observation ->
    ``vector_features`` by a dense layer with ReLU; both concatenated (the layout of
    :class:`boardgame_envs.agents.networks.PlanesExtractor`, without stable-baselines3). The planes
    are the observation's first ``channels * rows * columns`` values, in C order."""

    def __init__(
        self,
        observation_size: int,
        planes: tuple[int, int, int],
        channels: int,
        depth: int,
        plane_features: int,
        vector_features: int,
    ) -> None:
        super().__init__()
        self.planes = planes
        self.plane_size = int(np.prod(planes))
        in_channels, rows, columns = planes
        layers: list[nn.Module] = [nn.Conv2d(in_channels, channels, 1), nn.ReLU()]
        for _ in range(depth):
            layers += [nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU()]
        self.cnn = nn.Sequential(
            *layers,
            nn.Flatten(),
            nn.Linear(channels * rows * columns, plane_features),
            nn.ReLU(),
        )
        self.vector = nn.Sequential(
            nn.Linear(observation_size - self.plane_size, vector_features), nn.ReLU()
        )

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        planes = observations[:, : self.plane_size].reshape(-1, *self.planes)
        vector = observations[:, self.plane_size :]
        return torch.cat([self.cnn(planes), self.vector(vector)], dim=1)


class NumpyForward:
    """A :class:`PolicyValueNet`'s forward pass in numpy, one view at a time, for agents on
    the CPU. The networks are small, so torch's own cost of a call (about half a
    millisecond) outweighs the arithmetic; numpy does the same sums several times faster
    (``make bench``), which is most of the search's cost a node. The result equals
    :meth:`PolicyValueNet.evaluate` to float32 rounding.

    The weights are copied once: after the network learns, make a new one."""

    def __init__(self, net: PolicyValueNet) -> None:
        def dense(layer: nn.Linear) -> tuple[np.ndarray, np.ndarray]:
            return _array(layer.weight).T.copy(), _array(layer.bias)

        self.planes: tuple[int, int, int] | None = None
        if isinstance(net.features, PlanesTrunk):
            trunk = net.features
            self.planes = trunk.planes
            self.plane_size = trunk.plane_size
            convolutions = [m for m in trunk.cnn if isinstance(m, nn.Conv2d)]
            # Rows are (y, x) cells and columns channels, so a 1x1 convolution is a matrix
            # product, and a 3x3 one a product over the nine shifted copies side by side.
            self.pointwise = (
                _array(convolutions[0].weight)[:, :, 0, 0].T.copy(),
                _array(convolutions[0].bias),
            )
            self.spatial = [
                (
                    _array(conv.weight).transpose(2, 3, 1, 0).reshape(-1, conv.out_channels),
                    _array(conv.bias),
                )
                for conv in convolutions[1:]
            ]
            flatten = [m for m in trunk.cnn if isinstance(m, nn.Linear)][0]
            channels, rows, columns = convolutions[-1].out_channels, *self.planes[1:]
            # torch flattens (channel, y, x); the rows here are (y, x, channel).
            weight = _array(flatten.weight).reshape(-1, channels, rows, columns)
            self.flatten = (
                weight.transpose(2, 3, 1, 0).reshape(rows * columns * channels, -1).copy(),
                _array(flatten.bias),
            )
            self.vector = dense(next(m for m in trunk.vector if isinstance(m, nn.Linear)))
        self.dense = [dense(m) for m in net.trunk if isinstance(m, nn.Linear)]
        self.hinted = net.hinted
        self.hint_weight = float(net.hint_weight.detach()) if net.hinted else 0.0
        self.action_size = net.action_size
        self.policy = dense(net.policy_head)
        self.value = dense(net.value_head)

    def evaluate(self, observation: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(move probabilities[A], zero on illegal actions; values[players], relative to the
        viewing seat) of one observation[obs] and its bool mask[A]."""
        hidden = self._features(np.asarray(observation, dtype=np.float32))
        for weight, bias in self.dense:
            hidden = _relu(hidden @ weight + bias)
        logits = hidden @ self.policy[0] + self.policy[1]
        if self.hinted:
            logits += self.hint_weight * observation[-self.action_size :]
        logits = np.where(mask, logits, MASKED_LOGIT)
        exponentials = np.exp(logits - logits.max())
        probabilities = exponentials / exponentials.sum()
        return probabilities, np.tanh(hidden @ self.value[0] + self.value[1])

    def evaluate_batch(
        self, observations: np.ndarray, masks: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`evaluate` of observations[B, obs] and masks[B, A] in one pass: (probabilities
        [B, A], values[B, players]). The same sums as matrix products over the batch (equal
        to ``evaluate`` row by row to float32 rounding, not bit for bit: ``evaluate`` stays
        the one-view path, whose results the search's figures were measured with)."""
        observations = np.asarray(observations, dtype=np.float32)
        hidden = self._batch_features(observations)
        for weight, bias in self.dense:
            hidden = _relu(hidden @ weight + bias)
        logits = hidden @ self.policy[0] + self.policy[1]
        if self.hinted:
            logits += self.hint_weight * observations[:, -self.action_size :]
        logits = np.where(masks, logits, MASKED_LOGIT)
        exponentials = np.exp(logits - logits.max(axis=1, keepdims=True))
        probabilities = exponentials / exponentials.sum(axis=1, keepdims=True)
        return probabilities, np.tanh(hidden @ self.value[0] + self.value[1])

    def _batch_features(self, observations: np.ndarray) -> np.ndarray:
        if self.planes is None:
            return observations
        batch = len(observations)
        channels, rows, columns = self.planes
        planes = observations[:, : self.plane_size].reshape(batch, channels, rows * columns)
        image = _relu(planes.transpose(0, 2, 1) @ self.pointwise[0] + self.pointwise[1])
        for weight, bias in self.spatial:
            padded = np.pad(
                image.reshape(batch, rows, columns, -1), ((0, 0), (1, 1), (1, 1), (0, 0))
            )
            shifted = [padded[:, y : y + rows, x : x + columns] for y in range(3) for x in range(3)]
            neighbourhoods = np.concatenate(shifted, axis=3).reshape(batch, rows * columns, -1)
            image = _relu(neighbourhoods @ weight + bias)
        board = _relu(image.reshape(batch, -1) @ self.flatten[0] + self.flatten[1])
        rest = _relu(observations[:, self.plane_size :] @ self.vector[0] + self.vector[1])
        return np.concatenate([board, rest], axis=1)

    def _features(self, observation: np.ndarray) -> np.ndarray:
        if self.planes is None:
            return observation
        channels, rows, columns = self.planes
        cells = observation[: self.plane_size].reshape(channels, rows * columns).T
        image = _relu(cells @ self.pointwise[0] + self.pointwise[1])
        for weight, bias in self.spatial:
            padded = np.pad(image.reshape(rows, columns, -1), ((1, 1), (1, 1), (0, 0)))
            shifted = [padded[y : y + rows, x : x + columns] for y in range(3) for x in range(3)]
            neighbourhoods = np.concatenate(shifted, axis=2).reshape(rows * columns, -1)
            image = _relu(neighbourhoods @ weight + bias)
        board = _relu(image.reshape(-1) @ self.flatten[0] + self.flatten[1])
        rest = _relu(observation[self.plane_size :] @ self.vector[0] + self.vector[1])
        return np.concatenate([board, rest])


def _array(parameter: torch.Tensor) -> np.ndarray:
    return parameter.detach().cpu().numpy().astype(np.float32)


def _relu(values: np.ndarray) -> np.ndarray:
    return np.maximum(values, 0, out=values)


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """numpy's BLAS on one thread inside the block (the caller's setting comes back after):
    for matrices this small, a second thread costs more than it saves, and on a busy machine
    (workers on every core) waiting for it made a forward pass ten times slower."""
    libraries = _blas_libraries()
    threads = [library.get_num_threads() for library in libraries]
    for library, count in zip(libraries, threads):
        if count != 1:
            library.set_num_threads(1)
    try:
        yield
    finally:
        for library, count in zip(libraries, threads):
            if count != 1:
                library.set_num_threads(count)


@functools.cache
def _blas_libraries() -> list:
    from threadpoolctl import ThreadpoolController

    return list(ThreadpoolController().select(user_api="blas").lib_controllers)


def view_evaluator(net: PolicyValueNet):
    """A function of (observation[obs], mask[A]) -> (probabilities[A], values[players]) for
    one view: :class:`NumpyForward` for a network on the CPU, the network itself (on one
    torch thread) on another device."""
    if net.device.type == "cpu":
        return NumpyForward(net).evaluate

    def on_device(observation: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        with one_torch_thread():
            probabilities, values = net.evaluate(observation[None], mask[None])
        return probabilities[0], values[0]

    return on_device


def batch_evaluator(net: PolicyValueNet):
    """The batched :func:`view_evaluator`: (observations[B, obs], masks[B, A]) ->
    (probabilities[B, A], values[B, players]), in one pass: numpy for a network on the CPU,
    the network itself on another device (one transfer each way for the whole batch)."""
    if net.device.type == "cpu":
        return NumpyForward(net).evaluate_batch

    def on_device(observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        with one_torch_thread():
            return net.evaluate(observations, masks)

    return on_device


def _check_size(name: str, value: Any, low: int) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise InvalidConfigError(
            f"network option {name}={value!r} is not allowed; allowed: an integer >= {low}"
        )


def _check_players(game: str, num_players: Any, rules: Any) -> None:
    low, high = rules.min_players, rules.max_players
    if (
        isinstance(num_players, bool)
        or not isinstance(num_players, (int, np.integer))
        or not (low <= num_players <= high)
    ):
        raise InvalidConfigError(
            f"num_players={num_players!r} is not allowed for {game}; allowed: {low} to {high}"
        )


# -- what the network reads, and its values' seat order ----------------------------------------
def encode_view(view: PlayerView, hint: Agent | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(observation float32[obs], legal-action mask bool[A]) of ``view``, as the network
    reads them: ``observe(view, observe_mask=False)`` flattened (then, for a hinted network,
    the one-hot of ``hint``'s move in the view: see :func:`make_hint_agent`), and
    ``view.legal_action_mask()``."""
    observation = np.asarray(observe(view, False), dtype=np.float32).ravel()
    mask = np.asarray(view.legal_action_mask(), dtype=bool)
    if hint is None:
        return observation, mask
    one_hot = np.zeros(mask.shape[0], dtype=np.float32)
    one_hot[hint.act(view)] = 1.0
    return np.concatenate([observation, one_hot]), mask


def make_hint_agent(
    net: PolicyValueNet, seed: int | None = None, engine: str | None = None
) -> Agent | None:
    """The agent whose move a hinted ``net`` reads (None for a network without a hint): the
    game's heuristic on ``engine``'s views, seeded, as the network was trained with it."""
    if not net.hinted:
        return None
    # the spec parser sits above every agent: loaded by name, never imported
    make_agent = load_object("boardgame_envs.agents.specs:make_agent")
    return make_agent(net.hint, net.game, seed=seed, engine=engine)


def view_players(view: PlayerView) -> int:
    """The number of seats at the table of ``view`` (a game with one table size, such as
    Carcassonne: The Castle, does not say it in its views)."""
    players = getattr(view, "num_players", None)
    return int(players) if players is not None else int(view.rules.min_players)


def relative_returns(returns: Any, seat: int) -> np.ndarray:
    """``returns`` (one per seat, seat 0 first) reordered from ``seat``'s point of view:
    ``seat`` first, then the seats after it in turn order (the value head's order)."""
    returns = np.asarray(returns, dtype=np.float32)
    return np.roll(returns, -seat)


def absolute_values(values: Any, seat: int) -> np.ndarray:
    """The inverse of :func:`relative_returns`: values relative to ``seat`` (``seat``
    first) reordered by seat number, seat 0 first."""
    values = np.asarray(values)
    shift = seat % len(values)  # np.roll(values, seat), without its general-axis overhead
    return np.concatenate((values[-shift:], values[:-shift])) if shift else values.copy()


# -- saving and loading -------------------------------------------------------------------------
def save_net(net: PolicyValueNet, path: str | Path, extra: dict | None = None) -> Path:
    """Write ``net`` (its config and weights, on the CPU) and ``extra`` (plain data: numbers,
    strings, lists, dicts) to the ``.pt`` file ``path``, atomically: a reader never sees a
    half-written file. Returns the path."""
    path = Path(path)
    _check_plain(extra, "extra")
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "format": NET_FORMAT,
        "config": dict(net.config),
        "state_dict": {k: v.detach().cpu() for k, v in net.state_dict().items()},
        "extra": {} if extra is None else dict(extra),
    }
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(handle)
    try:
        torch.save(payload, temporary)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def _check_plain(value: Any, where: str) -> None:
    """A ``TypeError`` naming the first value in ``value`` that torch's safe loader
    (``weights_only=True``) would refuse: only None, bool, int, float, str, tensors, and
    lists, tuples and dicts of them are allowed."""
    if value is None or isinstance(value, (bool, int, float, str, torch.Tensor)):
        return
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _check_plain(item, f"{where}[{i}]")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            _check_plain(key, f"{where} key {key!r}")
            _check_plain(item, f"{where}[{key!r}]")
        return
    raise TypeError(
        f"{where} is {type(value).__name__} ({value!r:.40}); a network file holds only None, "
        "bool, int, float, str, tensors, and lists, tuples and dicts of them"
    )


def load_net(
    source: str | Path, game: str | None = None, device: str = "cpu"
) -> tuple[PolicyValueNet, dict]:
    """(the network in eval mode on ``device``, its ``extra``) from ``source``: a ``.pt``
    file, a training run directory holding ``net.pt``, or a shipped network's name
    (``<game>``, ``<game>@<n>p``; see :func:`shipped_nets`). With ``game``, a network of
    another game is refused. Any problem is an ``InvalidConfigError`` naming what was tried
    and what is allowed."""
    path = resolve_net(source)
    device = resolve_device(device, "device")
    try:
        payload = torch.load(path, map_location=device, weights_only=True)
    except Exception as error:  # not a torch file, truncated, or holding code objects
        raise InvalidConfigError(
            f"{str(path)!r} is not a readable network file ({type(error).__name__}: "
            f"{_first_line(error)}); allowed: a .pt file written by save_net"
        ) from error
    config = _checked_config(payload, path)
    if game is not None and config["game"] != game:
        raise InvalidConfigError(
            f"network {str(path)!r} is for {config['game']}, not {game}; allowed: a network "
            f"of {game} (net:{game}, net:{game}@<n>p, or a .pt file or run directory of one)"
        )
    net = _rebuild(config, path)
    try:
        net.load_state_dict(payload["state_dict"])
    except (RuntimeError, KeyError, TypeError) as error:
        raise InvalidConfigError(
            f"network {str(path)!r}: its weights do not fit its config ({_first_line(error)})"
        ) from error
    return net.to(device).eval(), dict(payload.get("extra") or {})


def _checked_config(payload: Any, path: Path) -> dict:
    if not isinstance(payload, dict) or payload.get("format") != NET_FORMAT:
        found = payload.get("format") if isinstance(payload, dict) else type(payload).__name__
        raise InvalidConfigError(
            f"{str(path)!r} is not a network file of format {NET_FORMAT!r} (found {found!r}); "
            "allowed: a .pt file written by save_net"
        )
    config = payload.get("config")
    needed = {"game", "num_players", "hidden", "layers", "observation_size", "action_size"}
    if not isinstance(config, dict) or not needed <= set(config):
        raise InvalidConfigError(
            f"network {str(path)!r} has no usable config (it needs {', '.join(sorted(needed))})"
        )
    return config


def _rebuild(config: dict, path: Path) -> PolicyValueNet:
    """The network ``config`` describes, checked against the game as this version encodes it."""
    shape = {name: config[name] for name in SHAPE_OPTIONS if name in config}
    net = PolicyValueNet(
        config["game"],
        config["num_players"],
        config["hidden"],
        config["layers"],
        hint=config.get("hint", "none"),
        **shape,
    )
    for key in ("observation_size", "action_size", "planes"):
        if net.config[key] != config.get(key, net.config[key]):
            raise InvalidConfigError(
                f"network {str(path)!r} was made for {config['game']} with {key} "
                f"{config.get(key)}; this version of the game has {net.config[key]}: "
                "retrain it for this version"
            )
    return net


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


#: A shipped network's file name: ``<game>_net.pt``, or ``<game>_<n>p_net.pt`` for n players.
SHIPPED_NET_FILE = re.compile(r"(?P<game>[a-z_]+?)(?:_(?P<players>\d+)p)?_net\.pt")


def shipped_nets() -> dict[str, Path]:
    """{name: file} of the networks shipped with the package: ``<game>`` (2 players) and
    ``<game>@<n>p`` (n players)."""
    folder = models_folder()
    found = {}
    for path in sorted(folder.glob("*_net.pt")) if folder.is_dir() else []:
        match = SHIPPED_NET_FILE.fullmatch(path.name)
        if match:
            players = match.group("players")
            found[match.group("game") + (f"@{players}p" if players else "")] = path
    return dict(sorted(found.items()))


def shipped_net_file_name(game: str, num_players: int = 2) -> str:
    """The file name of the network shipped as ``<game>`` (2 players) or ``<game>@<n>p``."""
    return f"{game}_net.pt" if num_players == 2 else f"{game}_{num_players}p_net.pt"


def resolve_net(source: str | Path) -> Path:
    """The network file of ``source``: an existing path (a ``.pt`` file, or a run directory
    holding ``net.pt``), else a shipped network's name; an ``InvalidConfigError`` saying what
    exists otherwise."""
    path = Path(source).expanduser()
    if path.is_dir():
        if not (path / RUN_NET_FILE).is_file():
            raise InvalidConfigError(
                f"no network in the folder {str(source)!r} (no {RUN_NET_FILE}); allowed: a .pt "
                f"file, or a training run directory that holds {RUN_NET_FILE}"
            )
        return path / RUN_NET_FILE
    if path.is_file():
        return path
    shipped = shipped_nets()
    if str(source) in shipped:
        return shipped[str(source)]
    raise InvalidConfigError(
        f"no network {str(source)!r}: no such file or run directory, and no shipped network of "
        f"that name; shipped: {', '.join(shipped) or 'none'} (<game>, <game>@<n>p), or give a "
        f".pt file or a training run directory holding {RUN_NET_FILE}"
    )


# -- the agent ----------------------------------------------------------------------------------
def parse_net_spec(
    kind: str, spec: str, allowed: tuple[str, ...] = NET_SPEC_OPTIONS
) -> tuple[str, dict[str, str]]:
    """``"wasabi,device=cuda"`` -> ("wasabi", {"device": "cuda"}): the network, then
    ``name=value`` options among ``allowed``; ``kind`` (``net``) names the agent in errors."""
    source, *parts = spec.split(",")
    if not source.strip() or "=" in source:
        raise InvalidConfigError(
            f"agent '{kind}:{spec}' names no network; allowed: {kind}:<game> (a shipped "
            f"network: {', '.join(shipped_nets()) or 'none yet'}), {kind}:<game>@<n>p, or "
            f"{kind}:<.pt file or run directory>"
        )
    options: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in parts)):
        name, sep, value = part.partition("=")
        if not sep or name.strip() not in allowed:
            raise InvalidConfigError(
                f"option {part!r} of agent '{kind}:{spec}' is not allowed; allowed: "
                f"{', '.join(f'{o}=...' for o in allowed)}"
            )
        options[name.strip()] = value.strip()
    return source.strip(), options


def parse_sample(value: str, spec: str) -> bool:
    if value not in ("0", "1"):
        raise InvalidConfigError(
            f"option sample={value!r} of agent 'net:{spec}' is not allowed; allowed: 0 (the "
            "most likely move) or 1 (a move drawn from the policy)"
        )
    return value == "1"


def check_game(net: PolicyValueNet, game: str, label: str) -> None:
    """An ``InvalidConfigError`` when ``net`` was made for another game than ``game``."""
    if net.game != game:
        raise InvalidConfigError(
            f"agent {label!r}: its network is for {net.game}, not {game}; allowed: a "
            f"network of {game}"
        )


def check_table(net: PolicyValueNet, view: PlayerView, label: str) -> None:
    """An ``InvalidConfigError`` when ``view``'s table is not the size ``net`` was made for."""
    players = view_players(view)
    if players != net.num_players:
        name = net.game if players == 2 else f"{net.game}@{players}p"
        if name in shipped_nets():
            fitting = f"e.g. the shipped net:{name}"
        else:
            fitting = f"none is shipped; train one with --algo exit --num-players {players}"
        raise InvalidConfigError(
            f"agent {label!r}: its network is for {net.num_players} players, this game has "
            f"{players}; allowed: a network trained at {players} players ({fitting})"
        )


class HoldsNet:
    """An agent's ``net``, with its forward pass (``net_forward``, see
    :func:`view_evaluator`) and its hint agent (``hint_agent``, see :func:`make_hint_agent`,
    on the ``hint_engine``'s views) remade whenever a network is assigned: weights changed in
    place afterwards are not seen until the network is assigned again. ``reset(seed)``
    seeds the hint agent too."""

    hint_engine: str | None = None

    @property
    def net(self) -> PolicyValueNet:
        return self._net

    @net.setter
    def net(self, net: PolicyValueNet) -> None:
        self._net = net.eval()
        self.net_forward = view_evaluator(self._net)
        self.net_forward_batch = batch_evaluator(self._net)
        self.hint_agent = make_hint_agent(self._net, seed=0, engine=self.hint_engine)

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)  # type: ignore[misc]
        hint_agent = getattr(self, "hint_agent", None)  # None while the agent is being made
        if hint_agent is not None:
            hint_agent.reset(seed)

    def encode(self, view: PlayerView) -> tuple[np.ndarray, np.ndarray]:
        """``view`` as the network reads it (:func:`encode_view`, with the hint)."""
        return encode_view(view, self.hint_agent)


class NetAgent(HoldsNet, Agent):
    """Plays a :class:`PolicyValueNet`'s policy: one forward pass on its own view a
    decision; the most likely legal move, or (``sample``) one drawn from the policy."""

    name = "net"

    def __init__(
        self,
        net: PolicyValueNet,
        seed: int | None = None,
        sample: bool = False,
        label: str = "net",
    ) -> None:
        super().__init__(seed)
        self.net = net
        self.sample_moves = sample
        self.label = label

    @classmethod
    def from_spec(cls, spec: str, game: str, seed: int | None = None) -> NetAgent:
        """The agent of ``<network>[,device=<device>][,sample=1]``, what follows ``net:``."""
        source, options = parse_net_spec("net", spec)
        sample = parse_sample(options.get("sample", "0"), spec)
        device = options.get("device", "cpu")
        if not DEVICE.fullmatch(device):
            raise InvalidConfigError(
                f"option device={device!r} of agent 'net:{spec}' is not allowed; allowed: "
                f"{DEVICES_TEXT}"
            )
        net, _ = load_net(source, game=game, device=device)
        return cls(net, seed=seed, sample=sample, label=f"net:{spec}")

    def act(self, view: PlayerView) -> int:
        mask = view.legal_action_mask()
        legal = np.flatnonzero(mask)
        if len(legal) == 0:
            raise InvalidConfigError(f"seat {view.seat} has no legal action in this view")
        if len(legal) == 1:
            return int(legal[0])
        check_table(self.net, view, self.label)
        with one_blas_thread():
            probabilities, _ = self.net_forward(*self.encode(view))
        if not self.sample_moves:
            return int(legal[np.argmax(probabilities[legal])])
        weights = probabilities[legal].astype(np.float64)
        return int(self.rng.choice(legal, p=weights / weights.sum()))

    def __repr__(self) -> str:
        return f"NetAgent({self.label})"
