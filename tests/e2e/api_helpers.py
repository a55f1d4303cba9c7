"""Helpers of the API tests: tokens, small games, and a real `umpire serve` on loopback."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

import httpx

from api.deps import services_for
from tests.builders import LogBuilder

ROOT = Path(__file__).resolve().parents[2]


def issue(db: str, role: str, game: Optional[str] = None, side: Optional[str] = None) -> dict[str, str]:
    """Authorization headers of a new token."""
    token, _ = services_for(db).tokens.issue(role, game, side)
    return {"Authorization": f"Bearer {token}"}


def small_game(game: str = "g-1") -> LogBuilder:
    """A game in turn 1's barrage phase, British active, with a unit on each side."""
    log = LogBuilder(game)
    log.add("MapDefined", {"maps": ["1"], "hexes": {"1:1210": {"terrain": "town"}}, "hexsides": []})
    log.unit("g-1", "german", "infantry-platoon", "1:1210")
    log.unit("b-fo", "british", "forward-observer", "1:1203")
    log.turn_start(1)
    log.phase_start("barrage", "british")
    return log


def next_event(game: str, seq: int, side: Optional[str] = None, turn: int = 1, phase: str = "barrage") -> dict:
    """A harmless event at `seq` (a table roll) for appending in tests."""
    return {"v": 1, "game": game, "seq": seq, "turn": turn, "phase": phase, "side": side,
            "type": "DieRolled", "data": {"purpose": "IM.SPOT.ROLL", "die": "d10", "result": seq % 10 + 1}}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`umpire serve` in a child process on a loopback port."""

    def __init__(self, db: str, port: Optional[int] = None, options: tuple[str, ...] = ()):
        self.db, self.port, self.options = db, port or free_port(), options
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: Optional[subprocess.Popen] = None
        # The server's log goes to a file: a pipe nobody reads would stop the server once it filled.
        self.log = tempfile.TemporaryFile()

    def start(self, timeout: float = 30.0) -> "Server":
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "api.cli", "serve", "--db", self.db, "--port", str(self.port), *self.options],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"umpire serve exited: {self.log_tail()}")
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("umpire serve did not answer /api/health in time")

    def log_tail(self, size: int = 2000) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-size:]

    def kill(self) -> None:
        """SIGKILL: no shutdown of any kind."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@contextmanager
def serving(db: str) -> Iterator[Server]:
    server = Server(db).start()
    try:
        yield server
    finally:
        server.stop()
