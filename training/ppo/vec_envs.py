"""A VecEnv whose envs are stepped in worker processes or Ray actors, a group per worker.

SB3's ``SubprocVecEnv`` gives every env a process of its own: one pipe round trip per env
per step. Here the ``n`` envs are split into ``K`` contiguous groups (sizes differing by at
most one) and each worker steps its group as a ``DummyVecEnv``, so a step costs one round
trip per group. Env ``i`` behaves exactly as env ``i`` of one ``DummyVecEnv`` over all
``n`` (seed ``seed + i`` from ``seed()``, the same auto-reset and infos), and the groups'
answers are concatenated in order: the arrays are the same for any ``K`` and either
backend.

Workers build their envs themselves with ``build(indices) -> (envs, shared)``, a picklable
callable (a module-level function or a ``functools.partial`` of one; with Ray the code must
be importable on every node). ``shared`` is whatever the worker's envs share (a self-play
pool, say) or None; :meth:`WorkerVecEnv.call_shared` calls one of its methods in every
worker, in order with the steps.

sb3-contrib asks for the action masks before every step (an ``env_method("action_masks")``
call); each worker sends its envs' masks back with every step and reset, so that call is
answered here, without a second round trip.
"""

from __future__ import annotations

import multiprocessing
import pickle
import signal
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvObs, VecEnvStepReturn

from boardgame_envs.training.parallel import WorkerError

MASK_METHOD = "action_masks"  # what sb3-contrib calls before every step
CLOSE_TIMEOUT_S = 10.0
OPEN_TIMEOUT_S = 300.0  # a worker imports torch and builds its envs; a busy Ray cluster waits

Build = Callable[[Sequence[int]], "tuple[list[gym.Env], Any]"]


def split(num_envs: int, workers: int) -> list[range]:
    """The envs of each worker: contiguous ranges, sizes differing by at most one."""
    size, extra = divmod(num_envs, workers)
    ranges, start = [], 0
    for k in range(workers):
        stop = start + size + (k < extra)
        ranges.append(range(start, stop))
        start = stop
    return ranges


class EnvGroup:
    """What one worker holds: its slice of the envs, stepped in turn as a DummyVecEnv,
    and the object they share. Every method answers with plain, picklable data."""

    def __init__(self, build: Build, indices: Sequence[int]) -> None:
        self.build, self.indices = build, list(indices)
        self.venv: DummyVecEnv | None = None
        self.shared: Any = None
        self.masks = False

    def open(self) -> tuple[gym.Space, gym.Space]:
        envs, self.shared = self.build(self.indices)
        self.venv = DummyVecEnv([lambda env=env: env for env in envs])
        self.masks = self.venv.has_attr(MASK_METHOD)
        return self.venv.observation_space, self.venv.action_space

    def reset(self, seeds: list, options: list) -> tuple:
        self.venv._seeds, self.venv._options = seeds, options
        obs = self.venv.reset()
        return obs, self.venv.reset_infos, self._masks()

    def step(self, actions: np.ndarray) -> tuple:
        self.venv.step_async(actions)
        obs, rewards, dones, infos = self.venv.step_wait()
        return obs, rewards, dones, infos, list(self.venv.reset_infos), self._masks()

    def has_attr(self, name: str) -> bool:
        return self.venv.has_attr(name)

    def get_attr(self, name: str, indices: list[int]) -> list:
        return self.venv.get_attr(name, indices)

    def set_attr(self, name: str, value: Any, indices: list[int]) -> None:
        self.venv.set_attr(name, value, indices)

    def env_method(self, name: str, args: tuple, kwargs: dict, indices: list[int]) -> list:
        return self.venv.env_method(name, *args, indices=indices, **kwargs)

    def env_is_wrapped(self, wrapper_class: type, indices: list[int]) -> list[bool]:
        return self.venv.env_is_wrapped(wrapper_class, indices)

    def call_shared(self, name: str, args: tuple) -> Any:
        return getattr(self.shared, name)(*args)

    def close(self) -> None:
        if self.venv is not None:
            self.venv.close()
            self.venv = None

    def _masks(self) -> np.ndarray | None:
        return np.stack(self.venv.env_method(MASK_METHOD)) if self.masks else None


class WorkerVecEnv(VecEnv):
    """``num_envs`` envs in ``workers`` groups, each in a fresh process (``backend``
    "local") or a Ray actor of one CPU (``backend`` "ray", with ``ray`` the initialised
    module; ``own_ray``: shut Ray down on close, it was started for this env).

    A worker's exception is raised here as itself (an ``InvalidConfigError`` from building
    the envs stays one), with the worker's traceback added as a note; a worker that dies
    raises :class:`WorkerError`. ``close()`` closes every env and ends the workers, also
    after an exception or Ctrl-C."""

    def __init__(
        self,
        build: Build,
        num_envs: int,
        workers: int,
        backend: str = "local",
        ray: Any = None,
        own_ray: bool = False,
    ) -> None:
        self.closed = False
        self.ray, self.own_ray = ray, own_ray
        self.ranges = split(num_envs, workers)
        self._masks: np.ndarray | None = None
        self.workers: list[_Worker] = []
        try:
            for k, indices in enumerate(self.ranges):
                group = EnvGroup(build, indices)
                worker = _RayWorker(ray, group, k) if backend == "ray" else _ProcessWorker(group, k)
                self.workers.append(worker)
            for worker in self.workers:
                worker.submit("open")
            try:
                spaces = self._results(timeout=OPEN_TIMEOUT_S)
            except TimeoutError as error:
                raise WorkerError(
                    f"{error}: the env workers did not start"
                    + (f"; does the Ray cluster have {workers} free CPUs?" if ray else "")
                ) from None
            super().__init__(num_envs, *spaces[0])
        except BaseException:
            self.close()
            raise

    # -- stepping -------------------------------------------------------------------------
    def reset(self) -> VecEnvObs:
        for worker, envs in zip(self.workers, self.ranges):
            worker.submit("reset", [self._seeds[i] for i in envs], [self._options[i] for i in envs])
        obs, self.reset_infos, masks = zip(*self._results())
        self.reset_infos = [info for infos in self.reset_infos for info in infos]
        self._keep_masks(masks)
        self._reset_seeds()
        self._reset_options()
        return np.concatenate(obs)

    def step_async(self, actions: np.ndarray) -> None:
        self._masks = None
        for worker, envs in zip(self.workers, self.ranges):
            worker.submit("step", actions[envs.start : envs.stop])

    def step_wait(self) -> VecEnvStepReturn:
        results = self._results()
        obs, rewards, dones, infos, reset_infos, masks = zip(*results)
        self.reset_infos = [info for group in reset_infos for info in group]
        self._keep_masks(masks)
        infos = [info for group in infos for info in group]
        return np.concatenate(obs), np.concatenate(rewards), np.concatenate(dones), infos

    # -- the envs' attributes and methods, routed to the groups that hold them -----------
    def has_attr(self, attr_name: str) -> bool:
        return all(self._all("has_attr", attr_name))

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return self._routed("get_attr", (attr_name,), indices)

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        self._masks = None
        self._routed("set_attr", (attr_name, value), indices, answers=False)

    def env_method(
        self, method_name: str, *method_args, indices: VecEnvIndices = None, **method_kwargs
    ) -> list[Any]:
        if method_name == MASK_METHOD and not method_args and not method_kwargs:
            if self._masks is not None:
                return list(self._masks[list(self._get_indices(indices))])
        else:
            self._masks = None  # the call may change an env
        return self._routed("env_method", (method_name, method_args, method_kwargs), indices)

    def env_is_wrapped(
        self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None
    ) -> list[bool]:
        return self._routed("env_is_wrapped", (wrapper_class,), indices)

    def call_shared(self, name: str, *args: Any) -> list[Any]:
        """``shared.<name>(*args)`` in every worker (after the steps sent before it); the
        answers in worker order."""
        self._masks = None
        return self._all("call_shared", name, args)

    def get_images(self) -> Sequence[np.ndarray | None]:
        return self.env_method("render")

    # -- closing ---------------------------------------------------------------------------
    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        try:
            for worker in self.workers:  # answers not collected (Ctrl-C, an error) dropped
                worker.close()
        finally:
            if self.own_ray and self.ray is not None and self.ray.is_initialized():
                self.ray.shutdown()

    # -- helpers ---------------------------------------------------------------------------
    def _all(self, method: str, *args: Any) -> list[Any]:
        for worker in self.workers:
            worker.submit(method, *args)
        return self._results()

    def _results(self, timeout: float | None = None) -> list[Any]:
        """Every worker's answer; the first error is raised once all have answered, so no
        answer is left behind in a pipe (Ctrl-C is raised at once: close() drains)."""
        answers, failure = [], None
        for worker in self.workers:
            try:
                answers.append(worker.result(timeout))
            except Exception as error:
                failure = failure or error
        if failure is not None:
            raise failure
        return answers

    def _routed(self, method: str, args: tuple, indices: VecEnvIndices, answers=True) -> list:
        """``method(*args, local indices)`` in the groups holding ``indices``; the answers
        in the order of ``indices``."""
        wanted = list(self._get_indices(indices))
        groups = [next(k for k, envs in enumerate(self.ranges) if i in envs) for i in wanted]
        local: dict[int, list[int]] = {}
        for i, k in zip(wanted, groups):
            local.setdefault(k, []).append(i - self.ranges[k].start)
        for k, group_indices in local.items():
            self.workers[k].submit(method, *args, group_indices)
        failure, results = None, {}
        for k in local:
            try:
                results[k] = iter(self.workers[k].result() or ())
            except Exception as error:
                failure = failure or error
        if failure is not None:
            raise failure
        return [next(results[k]) for k in groups] if answers else []

    def _keep_masks(self, masks: tuple) -> None:
        self._masks = None if any(m is None for m in masks) else np.concatenate(masks)


class _Worker:
    """One group's worker: ``submit`` a method call, ``result`` its answer, in order."""

    def __init__(self, group: EnvGroup, index: int) -> None:
        self.index = index
        self.pending = 0  # calls submitted and not answered yet

    def submit(self, method: str, *args: Any) -> None:
        raise NotImplementedError

    def result(self, timeout: float | None = None) -> Any:
        """The oldest pending call's answer; ``TimeoutError`` if none comes in time."""
        raise NotImplementedError

    def discard(self) -> None:
        """Drop the answers not collected yet (waiting for each at most a while)."""
        while self.pending:
            try:
                self.result(timeout=CLOSE_TIMEOUT_S)
            except TimeoutError:
                return
            except Exception:
                pass

    def close(self) -> None:
        raise NotImplementedError


class _ProcessWorker(_Worker):
    def __init__(self, group: EnvGroup, index: int) -> None:
        super().__init__(group, index)
        context = _process_context(group.build)
        self.pipe, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, group), daemon=True)
        self.process.start()
        child.close()

    def submit(self, method: str, *args: Any) -> None:
        self.pipe.send((method, args))
        self.pending += 1

    def result(self, timeout: float | None = None) -> Any:
        if timeout is not None and not self.pipe.poll(timeout):
            raise TimeoutError(f"env worker {self.index} did not answer in {timeout:g} s")
        try:
            status, value = self.pipe.recv()
        except (EOFError, ConnectionError):
            self.pending = 0
            raise WorkerError(
                f"env worker {self.index} (pid {self.process.pid}) died "
                f"(exit code {self.process.exitcode})"
            ) from None
        self.pending -= 1
        if status == "error":
            error, trace = value
            _add_note(error, f"raised in env worker {self.index}:\n{trace}")
            raise error
        return value

    def close(self) -> None:
        try:
            self.discard()
            if self.process.is_alive():
                self.submit("close")
                self.result(timeout=CLOSE_TIMEOUT_S)
        except (WorkerError, TimeoutError, OSError):
            pass  # gone already, or stuck: ended below
        finally:
            self.process.join(CLOSE_TIMEOUT_S)
            if self.process.is_alive():
                self.process.terminate()
                self.process.join()
            self.pipe.close()


def _process_context(build: Build):
    """Fresh processes, never forks of this one (no inherited torch or thread state):
    forks of a server process that has imported this module and that of ``build`` once,
    where the platform has one (a worker then starts without importing torch again), else
    spawned ones."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    preload = [__name__]
    module = getattr(getattr(build, "func", build), "__module__", None)
    # Not the main module (python -m ...): every worker re-runs that one as __mp_main__,
    # and runpy would warn that it had been imported already.
    main = getattr(sys.modules["__main__"].__spec__, "name", None)
    if module and module not in ("__main__", main):
        preload.append(module)
    context.set_forkserver_preload(preload)  # read when the server starts
    return context


def _serve(pipe, group: EnvGroup) -> None:
    """A worker process: answer the parent's calls on ``group`` until told to close."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the parent, which closes us
    while True:
        try:
            method, args = pipe.recv()
        except (EOFError, OSError):  # the parent is gone
            group.close()
            return
        try:
            answer = ("ok", getattr(group, method)(*args))
        except Exception as error:
            answer = ("error", (_picklable(error), traceback.format_exc()))
        try:
            pipe.send(answer)
        except Exception as error:  # an answer that cannot be pickled
            pipe.send(("error", (WorkerError(f"{type(error).__name__}: {error}"), "")))
        if method == "close":
            return


def _add_note(error: BaseException, note: str) -> None:
    """The worker's traceback under the error's own (Python 3.11+; dropped before)."""
    if hasattr(error, "add_note"):
        error.add_note(note)


def _picklable(error: Exception) -> Exception:
    try:
        pickle.loads(pickle.dumps(error))
        return error
    except Exception:
        return WorkerError(f"{type(error).__name__}: {error}")


class _RayWorker(_Worker):
    def __init__(self, ray: Any, group: EnvGroup, index: int) -> None:
        super().__init__(group, index)
        self.ray = ray
        actor_class = ray.remote(num_cpus=1, max_restarts=0)(EnvGroup)
        self.actor = actor_class.remote(group.build, group.indices)
        self.refs: list = []

    def submit(self, method: str, *args: Any) -> None:
        self.refs.append(getattr(self.actor, method).remote(*args))
        self.pending += 1

    def result(self, timeout: float | None = None) -> Any:
        ray = self.ray
        try:
            answer = ray.get(self.refs[0], timeout=timeout)
        except ray.exceptions.GetTimeoutError:
            raise TimeoutError(f"env actor {self.index} did not answer in {timeout:g} s") from None
        except ray.exceptions.RayTaskError as error:
            self._pop()
            cause = getattr(error, "cause", None)
            if isinstance(cause, Exception):
                _add_note(cause, f"raised in env actor {self.index}:\n{error}")
                raise cause from None
            raise WorkerError(f"env actor {self.index}: {error}") from None
        except ray.exceptions.RayActorError as error:
            self.refs, self.pending = [], 0
            raise WorkerError(f"env actor {self.index} died ({error})") from None
        self._pop()
        return answer

    def close(self) -> None:
        try:
            self.refs, self.pending = [], 0  # Ray needs no draining
            self.submit("close")
            self.result(timeout=CLOSE_TIMEOUT_S)
        except Exception:
            pass  # gone already, or stuck: killed below
        finally:
            self.refs, self.pending = [], 0
            try:
                self.ray.kill(self.actor)
            except Exception:
                pass

    def _pop(self) -> None:
        self.refs.pop(0)
        self.pending -= 1
