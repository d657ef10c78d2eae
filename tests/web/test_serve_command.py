"""``boardgame-envs serve``'s arguments are checked before anything starts: one line
naming the flag, exit code 2, no folder made, no port opened."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason='the web extra is not installed (pip install ".[web]")')
pytest.importorskip("uvicorn", reason='the web extra is not installed (pip install ".[web]")')

from boardgame_envs.training.cli import commands  # noqa: E402


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--port", "0"], "--port 0 is not allowed"),
        (["--port", "70000"], "--port 70000 is not allowed"),
        (["--host", "no host!"], "--host 'no host!' is not an address"),
        (["--agent-pause", "-1"], "--agent-pause -1.0 is not allowed"),
        (["--data", "FILE"], "--data"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(argv, words, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "FILE").write_text("a file, not a folder")

    def no_server(*args, **kwargs):
        raise AssertionError("the server started")

    monkeypatch.setattr("uvicorn.Server.run", no_server)
    assert commands.main(["serve", *argv, "--data", "FILE" if "FILE" in argv else "tables"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("boardgame-envs serve: ") and words in err
    assert err.count("\n") == 1
    assert not (tmp_path / "tables").exists()


def test_help_says_what_serve_does(capsys):
    with pytest.raises(SystemExit):
        commands.main(["serve", "--help"])
    text = capsys.readouterr().out
    for flag in ("--host", "--port", "--data", "--agent-pause"):
        assert flag in text
    assert "web app" in text
