"""The same server on PostgreSQL (``--database URL``): a deal survives ``kill -9``.

``PG_URL`` names a database to use; without it the test starts a throwaway cluster of its
own from Debian's binaries (``/usr/lib/postgresql/<version>/bin``): ``initdb`` into a
temporary folder, ``pg_ctl start`` on a free loopback port with its socket in that folder,
ready once ``pg_isready`` says so, stopped and removed after. ``initdb`` refuses to run as
root, so as root the cluster runs as the ``postgres`` user. Under ``CI=true`` a missing
PostgreSQL (or psycopg) fails the test instead of skipping it.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

import pytest

from rummy_widget.classroom import Classroom

from .conftest import HOST, free_port, wait_for
from .players import play_all, table_of_four

IN_CI = os.environ.get("CI", "").lower() in ("true", "1", "yes")


def missing(reason: str):
    if IN_CI:
        pytest.fail(f"{reason} (CI=true: not skipping)")
    pytest.skip(reason)


def postgres_bin() -> Path | None:
    """The newest of Debian's PostgreSQL versions installed here."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
    return found[-1].parent if found else None


class Cluster:
    """A throwaway PostgreSQL cluster in a temporary folder, as its own user when root."""

    def __init__(self, binaries: Path) -> None:
        self.bin = binaries
        self.dir = Path(tempfile.mkdtemp(prefix="rummy-pg-"))
        self.data, self.port = self.dir / "data", free_port()
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
            self.prefix = ["runuser", "-u", "postgres", "--"]

    def run(self, tool: str, *args: str) -> subprocess.CompletedProcess:
        command = [*self.prefix, str(self.bin / tool), *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=120)

    def start(self) -> str:
        made = self.run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-N")
        assert made.returncode == 0, made.stderr
        # fsync off: the test kills the classroom server, never PostgreSQL or the machine.
        options = f"-p {self.port} -k {self.dir} -c listen_addresses={HOST} -c fsync=off"
        log = str(self.dir / "postgres.log")
        started = self.run("pg_ctl", "-D", str(self.data), "-o", options, "-l", log, "start")
        assert started.returncode == 0, started.stderr + (self.dir / "postgres.log").read_text()
        wait_for(
            lambda: self.run("pg_isready", "-h", HOST, "-p", str(self.port)).returncode == 0,
            what="PostgreSQL to accept connections",
        )
        return f"postgresql://postgres@{HOST}:{self.port}/postgres"

    def stop(self) -> None:
        self.run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="module")
def pg_url():
    try:
        import psycopg  # noqa: F401
    except ImportError:
        missing("psycopg is not installed (the [postgres] extra)")
    if os.environ.get("PG_URL"):
        yield os.environ["PG_URL"]
        return
    binaries = postgres_bin()
    if binaries is None:
        missing("no PG_URL and no PostgreSQL in /usr/lib/postgresql (.ci/run installs it)")
    cluster = Cluster(binaries)
    try:
        yield cluster.start()
    finally:
        cluster.stop()


def test_a_deal_on_postgresql_survives_kill_9(server_factory, pg_url):
    room = "PG" + secrets.token_hex(4)
    server = server_factory("--deals", "1", "--database", pg_url, "--room", room)
    seats = table_of_four(server.url, room)
    seats[0].wait(lambda s: s["view"] is not None)
    acked: list = []
    done: list = []
    runner = threading.Thread(target=lambda: done.append(play_all(seats, acked)))
    runner.start()
    wait_for(lambda: len(acked) >= 10, what="moves on PostgreSQL")
    server.kill()
    server.start()
    runner.join(300)
    assert done and all(state["finished"] for state in done[0])
    teacher = Classroom(server.url, server.key)
    game = teacher.game(room, 0, 0)
    assert game.phase == "over" and len(game.history) == done[0][0]["move"]
    stored = {r["name"] for r in teacher.results() if r["room"] == room}
    assert stored == {"Ann", "Bo", "Cy", "Di"}
