"""A Redis server of a test's own (``redis-server`` on a free port, no persistence), which the
test may stop and start again on the same port, as a broker restart in production does."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path


def free_port() -> int:
    """A TCP port nobody listens on now (the kernel's pick)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def dead_url(scheme: str = "redis") -> str:
    """The URL of a port where nothing answers (a broker or cache that is down)."""
    return f"{scheme}://127.0.0.1:{free_port()}/0"


class RedisServer:
    """``redis-server`` on ``127.0.0.1:port`` (a free one by default), without persistence
    (what was in it is gone after a restart, the worse case). :meth:`stop` kills it
    (SIGKILL: a crash); :meth:`start` starts it again on the same port."""

    def __init__(self, port: int | None = None):
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.binary = binary
        self.port = port or free_port()
        self.dir = tempfile.mkdtemp(prefix="trix-redis-")
        self.proc: subprocess.Popen | None = None
        self.start()

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        cmd = [
            self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
            "--appendonly", "no", "--dir", self.dir, "--logfile", str(Path(self.dir) / "log"),
        ]  # fmt: skip
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None
