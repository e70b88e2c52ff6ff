"""The classroom server under load: N tables of four scripted seats on loopback.

    python benchmarks/classroom.py [--tables 200] [--seconds 20] [--only sqlite,redis,bgio]
                                   [--think SECONDS [--jitter FRACTION]]

Starts ``rummy-widget classroom`` as a subprocess (1 worker with SQLite, then 2 workers
sharing tables through a Redis that this script starts), opens 4 WebSocket seats per table
from one asyncio process (``Seat``: websockets' sans-I/O protocol, each frame decoded and
applied in the callback that read it), and lets a basic bot choose each seat's moves, which
it sends through the protocol like any learner. Prints moves per second (acknowledged moves
over the run's wall time) and the move round trip (an ``act`` sent until its ``ack``; the
server stores the move before it acknowledges) as median and p99, the CPU a move of the
server and of the clients while measured (boardgame.io's server too), then checks that the
store holds exactly the acknowledged moves ("lost" and "extra" should be 0). Moves
acknowledged after the run's time is up are checked against the store but not counted in
the figures, as load.cjs counts none of them.

Two paces. Closed loop (the default, ``--think 0``): each seat acts the instant its turn
comes, so the machine is saturated and, by Little's law, the mean round trip is about the
tables in flight over the moves per second; this measures how many moves a second the
whole loop manages and what the queueing does to the tail. Paced (``--think 1``): each seat
thinks before every move, a time drawn (seeded per seat) uniformly from ``think × (1 ±
jitter)`` (``--jitter 0.5`` by default; ``--jitter 0`` is the same pause every time, which
keeps all tables in lockstep), as learners in a classroom do; this measures the round trip
at the pace a class plays, where the 50 ms goal is judged. The same pace runs against
boardgame.io.

The clients share the machine's two cores with the server: the figures are for the whole
loop on one machine, not the server alone. The client process tunes its cycle collector as
the server does (``collector.quiet_collector``), so that its own pauses are not counted as the
server's round trip. A benchmark, not a test: nothing fails on a slow
figure. Goal (docs/classroom.md): 200 tables (800 connections), p99 under 50 ms, nothing lost.

The reference, in the same run: boardgame.io's ``Server`` (npm ``boardgame.io``, pinned in
benchmarks/bgio/package-lock.json; ``cd benchmarks/bgio && npm ci`` once) with a minimal
four-player game whose one move is applied by the server only, under the same load from Node
(benchmarks/bgio/load.cjs: 4 socket.io clients per match, each moving as soon as its turn
comes, a round trip being a move sent until the client's state shows it). Its state is tiny,
while a classroom state carries the seat's whole observation: the reference does less work.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from websockets.client import ClientProtocol
from websockets.frames import Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from rummy_widget.bots import get_bot
from rummy_widget.classroom.collector import quiet_collector
from rummy_widget.classroom.protocol import apply_update, encode

try:  # the same dicts and lists as json.loads, in about a third of its time (msgspec, if there)
    from msgspec.json import Decoder

    decode_frame, DECODER = Decoder().decode, "msgspec"
except ImportError:
    decode_frame, DECODER = json.loads, "json"

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def wait_port(port: int, proc: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"process exited with {proc.returncode}")
        try:
            socket.create_connection((HOST, port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit("timed out waiting for a port")


def _cpu(pid: int) -> float:
    """User+system CPU seconds of a process and its children so far (from /proc)."""
    total = 0.0
    pids = [pid]
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.exists():
        pids += [int(p) for p in children.read_text().split()]
    for p in pids:
        fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


class Load:
    """Round trips and counts of one run."""

    def __init__(self) -> None:
        self.trips: list[float] = []
        self.acked = 0
        self.errors = 0
        self.late = 0  # acknowledged after the run's time was up
        self.joined = 0
        self.lags: list[float] = []  # how late the client's own loop woke, every 10 ms


async def watch_loop(load: Load, stop: asyncio.Event) -> None:
    """The clients' own stalls (their work, their collector, the machine's other load): a
    round trip includes them, so they are printed beside it."""
    while not stop.is_set():
        before = time.perf_counter()
        await asyncio.sleep(0.01)
        load.lags.append(time.perf_counter() - before - 0.01)


#: What each read of any seat's socket goes into (copied out at once; see ``Seat``).
READ = memoryview(bytearray(64 * 1024))


class Seat(asyncio.BufferedProtocol):
    """One learner's seat: joins, keeps its state from every ``state`` and ``update`` it is
    sent, and when its turn comes lets the basic bot choose the move and sends it as an
    ``act``, then waits for the ``ack``.

    It speaks WebSocket through websockets' sans-I/O ``ClientProtocol`` on an asyncio
    protocol, handling each frame in the callback that read it, rather than through
    ``websockets.connect``, whose reader task, message queue and ``recv`` future per frame
    cost about as much CPU as the server's whole move did (the clients share the machine's
    two cores with the server, so their cost was the loop's ceiling). It does the same
    work a seat does: every frame is decoded and applied, every move chosen by the bot.
    As a ``BufferedProtocol`` it is read into one buffer all seats share (the loop reads one
    socket at a time), since asyncio reads a plain protocol with ``recv(262144)``, a quarter
    megabyte allocated (and mapped and unmapped) for every frame of a few hundred bytes:
    about 12 µs a read against 2.5 µs into a buffer already there.
    """

    def __init__(self, url: str, name: str, load: Load, seed: int, pace: tuple) -> None:
        self.ws = ClientProtocol(parse_uri(url), max_size=2**22)
        self.name, self.load, self.seed, self.pace = name, load, seed, pace
        self.rng = random.Random(seed)
        self.me: int | None = None
        self.state: dict | None = None
        self.joined = self.going = self.stopping = False
        self.pending: tuple[str, float] | None = None
        self.thinking: asyncio.TimerHandle | None = None
        self.bots: dict = {}
        self.prefix, self.sent = f"{secrets.token_hex(4)}-", 0  # move ids unique to the run
        self.closed = asyncio.get_running_loop().create_future()

    def connection_made(self, transport) -> None:
        self.transport = transport
        self.ws.send_request(self.ws.connect())
        self.flush()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.thinking is not None:
            self.thinking.cancel()
        if not self.closed.done():
            self.closed.set_result(None)

    def get_buffer(self, sizehint: int) -> memoryview:
        return READ

    def buffer_updated(self, nbytes: int) -> None:
        self.ws.receive_data(bytes(READ[:nbytes]))
        for event in self.ws.events_received():
            if isinstance(event, Response):
                if self.ws.handshake_exc is not None:
                    raise self.ws.handshake_exc
                self.send({"type": "join", "room": "BENCH", "name": self.name})
            elif event.opcode is Opcode.TEXT:  # the server sends each message in one frame
                self.receive(decode_frame(event.data))
        self.flush()

    def send(self, message: dict) -> None:
        self.ws.send_text(encode(message).encode())

    def flush(self) -> None:
        data = self.ws.data_to_send()
        if data:
            self.transport.write(b"".join(data))

    def close(self) -> None:
        if not self.transport.is_closing():
            self.transport.close()

    def receive(self, message: dict) -> None:
        kind = message["type"]
        if kind == "welcome":
            self.me = message["seat"]
        elif kind == "state":
            self.state = message
        elif kind == "update":
            self.state = apply_update(self.state, message)
        elif kind == "ack" and self.pending and message["id"] == self.pending[0]:
            if self.stopping:  # counted as stored, not in the run's figures (as load.cjs)
                self.load.late += 1
            else:
                self.load.trips.append(time.perf_counter() - self.pending[1])
                self.load.acked += 1
            self.pending = None
        elif kind == "error":
            self.load.errors += 1
            self.pending = None
        if not self.joined and self.state is not None and self.state["view"] is not None:
            self.joined = True  # the table has dealt
            self.load.joined += 1
        if self.going:
            self.step()

    def go(self) -> None:
        """Every table has dealt: the measured run starts."""
        self.going = True
        self.step()
        self.flush()

    def stop(self) -> None:
        """No new moves; a move sent still gets its ack."""
        self.stopping = True
        if self.thinking is not None:
            self.thinking.cancel()
            self.thinking = None
        if self.pending is None:
            self.close()

    def step(self) -> None:
        state = self.state
        view = state["view"]
        if state["finished"] or (self.stopping and self.pending is None):
            self.close()
            return
        mine = view["phase"] != "over" and view["current_player"] == self.me
        if not mine or self.pending is not None or self.thinking is not None or self.stopping:
            return
        bot = self.bots.get(state["deal"])
        if bot is None:  # one bot a deal, made when the deal's first turn comes
            bot = self.bots[state["deal"]] = get_bot("basic", seed=self.seed)
        action = bot.act(view)
        think, jitter = self.pace
        if think:  # a learner's pause before the move
            delay = think * (1 + jitter * (2 * self.rng.random() - 1))
            self.thinking = asyncio.get_running_loop().call_later(delay, self.act, action)
        else:
            self.act(action)

    def act(self, action) -> None:
        if self.thinking is not None:  # the pause is over: send now
            self.thinking = None
            self.act_now(action)
            self.flush()
        else:
            self.act_now(action)

    def act_now(self, action) -> None:
        state = self.state
        self.sent += 1
        nonce = f"{self.prefix}{self.sent}"
        self.pending = (nonce, time.perf_counter())
        act = {"type": "act", "id": nonce, "deal": state["deal"], "move": state["move"]}
        self.send({**act, "action": action.to_json()})


async def drive(
    url: str, tables: int, seconds: float, pace: tuple[float, float], mark=lambda: None
) -> tuple[Load, float]:
    """Join every seat first (tables deal as they fill), then let them play for ``seconds``."""
    load, stop = Load(), asyncio.Event()
    loop = asyncio.get_running_loop()
    uri = parse_uri(url)
    seats = []
    for i in range(tables * 4):  # joined in order: table i // 4 deals when its 4th sits
        _, seat = await loop.create_connection(
            lambda i=i: Seat(url, f"S{i}", load, i, pace), uri.host, uri.port
        )
        seats.append(seat)
    while load.joined < tables * 4:
        await asyncio.sleep(0.05)
    mark()
    for seat in seats:
        seat.go()
    watcher = asyncio.create_task(watch_loop(load, stop))
    started = time.perf_counter()
    await asyncio.sleep(seconds)
    stop.set()
    for seat in seats:
        seat.stop()
    mark()
    elapsed = time.perf_counter() - started
    closing = [seat.closed for seat in seats]
    await asyncio.wait(closing, timeout=5)
    for seat in seats:  # seats waiting for a turn that will not come
        seat.close()
    await asyncio.gather(*closing, watcher, return_exceptions=True)
    return load, elapsed


BGIO = Path(__file__).resolve().parent / "bgio"


def reference(tables: int, seconds: float, pace: tuple[float, float]) -> dict | None:
    """boardgame.io under the same load; None (and a line saying why) if it cannot run."""
    node = shutil.which("node")
    if node is None or not (BGIO / "node_modules" / "boardgame.io").exists():
        print("boardgame.io           not measured: needs node and `npm ci` in benchmarks/bgio")
        return None
    port = free_port()
    server = subprocess.Popen([node, "server.cjs", str(port)], cwd=BGIO, stdout=subprocess.DEVNULL)
    try:
        wait_port(port, server)
        load = subprocess.Popen(
            [node, "load.cjs", str(port), str(tables), str(seconds), *map(str, pace)],
            cwd=BGIO,
            stdout=subprocess.PIPE,
            text=True,
        )
        marks, last = [], ""  # the server's CPU seconds when load.cjs says "go" and "stop"
        for line in load.stdout:
            if line.strip() in ("go", "stop"):
                marks.append(_cpu(server.pid))
            last = line or last
        if load.wait(timeout=seconds + 600) != 0 or len(marks) != 2:
            raise SystemExit(f"load.cjs failed ({load.returncode})")
    finally:
        server.terminate()
        server.wait(timeout=30)
    figures = json.loads(last)
    rate = figures["acked"] / figures["elapsed"]
    per_move = (marks[1] - marks[0]) * 1000 / max(1, figures["acked"])
    print(
        f"{'boardgame.io 0.50':<22} tables {tables:>4}  connections {tables * 4:>4}  "
        f"moves/s {rate:8.0f}  round trip median {figures['median']:6.1f} ms  "
        f"p99 {figures['p99']:6.1f} ms  acked {figures['acked']}  "
        f"cpu ms a move while measured: server {per_move:.2f}",
        flush=True,
    )
    return {"rate": rate, "p99": figures["p99"]}


def _sockets(pid: int) -> int:
    """How many sockets a process holds open (its connections, and a few of its own)."""
    count = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):  # closed meanwhile
            count += os.readlink(fd).startswith("socket:")
    return count


def run(
    label: str,
    tables: int,
    seconds: float,
    workers: int,
    redis: str | None,
    pace: tuple,
    redis_pid: int | None = None,
) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="classroom-bench-"))
    port = free_port()
    database = tmp / "classroom.sqlite3"
    command = [sys.executable, "-m", "rummy_widget", "classroom", "--host", HOST]
    command += ["--port", str(port), "--database", str(database), "--deals", "1000"]
    command += ["--rate", "1000", "--room", "BENCH"]  # learners join the teacher's rooms
    command += ["--max-tables", str(tables), "--max-connections", str(tables * 4 + 10)]
    if workers > 1:
        command += ["--workers", str(workers), "--redis", redis]
    log = open(tmp / "server.log", "w")  # noqa: SIM115
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_port(port, server)
        # (server, client, Redis) CPU seconds at go and stop, and each worker's sockets
        marks: list[tuple[float, float, float]] = []
        spread: list[int] = []

        def mark() -> None:
            extra = _cpu(redis_pid) if redis_pid else 0.0
            marks.append((_cpu(server.pid), time.process_time(), extra))
            if not spread and workers > 1:
                children = Path(f"/proc/{server.pid}/task/{server.pid}/children")
                spread.extend(_sockets(int(p)) for p in children.read_text().split())

        url = f"ws://{HOST}:{port}/ws"
        load, elapsed = asyncio.run(drive(url, tables, seconds, pace, mark))
        server_cpu = _cpu(server.pid)
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
    (stored,) = sqlite3.connect(database).execute("SELECT COUNT(*) FROM moves").fetchone()
    trips = sorted(t * 1000 for t in load.trips)
    (server_go, client_go, redis_go), (server_stop, client_stop, redis_stop) = marks
    acked = max(1, load.acked)
    per_move = ((server_stop - server_go) * 1000 / acked, (client_stop - client_go) * 1000 / acked)
    beside = f" redis {(redis_stop - redis_go) * 1000 / acked:.2f}" if redis_pid else ""
    if spread:
        beside += f"; sockets a worker {'/'.join(map(str, spread))}"
    p99 = trips[min(len(trips) - 1, int(len(trips) * 0.99))] if trips else float("nan")
    lags = sorted(load.lags) or [float("nan")]
    lag_p99 = lags[min(len(lags) - 1, int(len(lags) * 0.99))] * 1000
    print(
        f"{label:<22} tables {tables:>4}  connections {tables * 4:>4}  "
        f"moves/s {load.acked / elapsed:8.0f}  round trip median "
        f"{statistics.median(trips) if trips else float('nan'):6.1f} ms  p99 {p99:6.1f} ms  "
        f"acked {load.acked} (+{load.late} after the stop)  stored {stored}  "
        f"lost {max(0, load.acked + load.late - stored)}  "
        f"extra {max(0, stored - load.acked - load.late)}  errors {load.errors}  "
        f"cpu s: server {server_cpu:.1f} clients {time.process_time():.1f}; "
        f"cpu ms a move while measured: server {per_move[0]:.2f} clients {per_move[1]:.2f}"
        f"{beside}; "
        f"client loop late p99 {lag_p99:.1f} ms",
        flush=True,
    )
    shutil.rmtree(tmp, ignore_errors=True)
    return {"rate": load.acked / elapsed, "p99": p99}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--only",
        type=lambda text: set(text.split(",")),
        default={"sqlite", "redis", "bgio"},
        help="the servers to run, of sqlite, redis and bgio (comma-separated)",
    )
    parser.add_argument(
        "--think", type=float, default=0.0, help="mean seconds each seat thinks before a move"
    )
    parser.add_argument(
        "--jitter",
        type=float,
        default=0.5,
        help="each think time is drawn from think × (1 ± jitter), seeded per seat",
    )
    args = parser.parse_args()
    quiet_collector()
    pace = (args.think, args.jitter if args.think else 0.0)
    load = os.getloadavg()[0]
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load average {load:.1f}, "
        f"think time {args.think} s ± {pace[1] * 100:.0f}%, seats decode with {DECODER}"
    )
    ours = {}
    if "sqlite" in args.only:
        ours["1 worker + SQLite"] = run(
            "1 worker + SQLite", args.tables, args.seconds, 1, None, pace
        )
    if "redis" in args.only:
        redis_port = free_port()
        redis = subprocess.Popen(
            ["redis-server", "--port", str(redis_port), "--bind", HOST, "--save", ""],
            stdout=subprocess.DEVNULL,
        )
        try:
            wait_port(redis_port, redis)
            url = f"redis://{HOST}:{redis_port}/0"
            ours["2 workers + Redis"] = run(
                "2 workers + Redis", args.tables, args.seconds, 2, url, pace, redis.pid
            )
        finally:
            redis.terminate()
            redis.wait(timeout=10)
    if "bgio" in args.only:
        ref = reference(args.tables, args.seconds, pace)
        for label, figures in ours.items() if ref else ():
            print(
                f"{label}: {figures['rate'] / ref['rate']:.2f}x boardgame.io's moves/s, "
                f"p99 {figures['p99'] / ref['p99']:.2f}x its p99 (goal: >= 1 and < 1)"
            )


if __name__ == "__main__":
    main()
