"""Real processes for the classroom tests: the server (and Redis) started as subprocesses on
free loopback ports, waited for by their ports and their printed lines, never by sleeping."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the [classroom] extra is not installed")

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def wait_for(check, timeout: float = 30.0, what: str = "condition"):
    """Poll ``check`` (a real signal: a port, a file's line, a server's answer)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.02)
    raise TimeoutError(f"timed out waiting for {what}")


def port_open(port: int) -> bool:
    try:
        with socket.create_connection((HOST, port), timeout=0.2):
            return True
    except OSError:
        return False


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


class Server:
    """``rummy-widget classroom`` in a subprocess; ``kill()`` is a kill -9, ``start()`` again
    reuses the same database file and port."""

    def __init__(self, tmp: Path, *args: str, workers: int = 1, redis: str | None = None):
        self.tmp, self.port = tmp, free_port()
        self.database = str(tmp / "classroom.sqlite3")
        self.args = list(args)
        if workers > 1:
            self.args += ["--workers", str(workers), "--redis", redis]
        self.log = tmp / "server.log"
        self.proc: subprocess.Popen | None = None
        self.key: str | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def start(self) -> Server:
        command = [sys.executable, "-m", "rummy_widget", "classroom", "--host", HOST]
        command += ["--port", str(self.port), "--database", self.database, *self.args]
        self._out = open(self.log, "a")  # noqa: SIM115 (closed in stop)
        self._since = self.log.stat().st_size  # this run's lines start here
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(command, stdout=self._out, stderr=subprocess.STDOUT, env=env)
        wait_for(lambda: self._line("Teacher key"), what="the teacher key's line")
        shown = self._line("Teacher key (shown once): ")  # printed only when it was made
        if shown is not None:
            self.key = shown.split(": ", 1)[1].strip()
        wait_for(lambda: port_open(self.port), what="the server's port")
        return self

    def _line(self, prefix: str) -> str | None:
        if self.proc.poll() is not None:
            raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
        with open(self.log) as log:
            log.seek(self._since)
            lines = [line for line in log.read().splitlines() if line.startswith(prefix)]
        return lines[-1] if lines else None

    def workers(self) -> list[int]:
        """uvicorn's worker processes (not multiprocessing's resource tracker)."""
        path = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
        pids = [int(p) for p in path.read_text().split()]
        return [p for p in pids if b"spawn_main" in _cmdline(p)]

    def kill(self) -> None:
        children = self._children_safe()
        self.proc.send_signal(signal.SIGKILL)
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.proc.wait()
        self._out.close()
        wait_for(lambda: not port_open(self.port), what="the port to close")

    def _children_safe(self) -> list[int]:
        try:
            path = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
            return [int(p) for p in path.read_text().split()]
        except OSError:
            return []

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.proc:
            self._out.close()


@pytest.fixture
def server_factory(tmp_path):
    started: list[Server] = []

    def make(*args: str, **options) -> Server:
        server = Server(tmp_path, *args, **options)
        started.append(server)
        return server.start()

    yield make
    for server in started:
        server.stop()


@pytest.fixture
def redis_url(tmp_path):
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail("redis-server is not installed (.ci/run installs it)")
    port = free_port()
    proc = subprocess.Popen(
        [
            binary,
            "--port",
            str(port),
            "--bind",
            HOST,
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(tmp_path),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(lambda: port_open(port), what="redis")
        yield f"redis://{HOST}:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
