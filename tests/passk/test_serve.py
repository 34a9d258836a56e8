"""passk serve's arguments and the gunicorn command it becomes (tests/stack/test_packaging.py runs it for real from
an installed wheel)."""

import io

import pytest

from passk import serve
from passk.__main__ import main


def test_the_command_runs_the_package_s_site_with_its_settings_and_bounds():
    command = serve.gunicorn_command("127.0.0.1", 8123, 3)
    assert command[1:3] == ["-m", "gunicorn"] and command[-1] == "passk.web.app:create_app()"
    assert command[command.index("--config") + 1] == "python:passk.web.gunicorn_conf"
    assert command[command.index("--bind") + 1] == "127.0.0.1:8123"
    assert command[command.index("--worker-class") + 1] == "gthread" and command[command.index("--workers") + 1] == "3"
    assert 0 < int(command[command.index("--limit-request-line") + 1]) <= 8190   # gunicorn alone bounds the line
    assert "--workers" not in serve.gunicorn_command("::1", 8123, None)
    assert serve.gunicorn_command("::1", 8123, None)[serve.gunicorn_command("::1", 8123, None).index("--bind") + 1] \
        == "[::1]:8123"


@pytest.mark.parametrize("argv", [["--port", "0"], ["--port", "70000"], ["--workers", "0"]])
def test_bad_numbers_are_refused_with_status_2_before_anything_starts(argv, monkeypatch):
    monkeypatch.setattr(serve.os, "execv", lambda *args: pytest.fail("started"))
    said = io.StringIO()
    assert main(["serve", *argv], stderr=said) == 2
    assert "port must be 1-65535" in said.getvalue()


def test_the_first_line_says_where_a_public_deployment_belongs(monkeypatch, capsys):
    started = []
    monkeypatch.setattr(serve.os, "execv", lambda path, command: started.append(command))
    said = io.StringIO()
    assert serve.main(["--port", "8124"], io.StringIO(), said) == 0
    first = said.getvalue().splitlines()[0]
    assert "trusted network" in first and "nginx" in first and "Dockerfile" in first
    assert started and started[0][-1] == "passk.web.app:create_app()"
