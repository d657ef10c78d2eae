"""Models saved by earlier versions name the library's classes by their old top-level paths
(``agents.hinted.HintedPolicy``, ``training.rollout_buffer``): they load as the library's
own, even from a folder that holds the user's own ``agents`` and ``training`` packages,
which stay the user's."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_a_shipped_policy_loads_beside_the_users_own_agents_package(tmp_path):
    for package in ("agents", "training"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text(f'WHOSE = "the user\'s {package}"\n')
    code = textwrap.dedent(
        """
        import agents, training
        import boardgame_envs
        from boardgame_envs.agents.specs import make_agent

        agent = make_agent("ppo:wasabi", "wasabi", seed=0)
        state = boardgame_envs.make_rules("wasabi").new_state(2, seed=1)
        agent.act(state.view(state.current_player))
        import agents as again
        print(type(agent.model.policy).__module__, again.WHOSE, again is agents)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split("\n")[0] == "boardgame_envs.agents.hinted the user's agents True"
