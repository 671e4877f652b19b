"""The site served as production serves it: ``trix_site.asgi`` under uvicorn, in a thread of
the test process (on the test database), on a free port. The ``live_server`` of every
browser test (``tests/conftest.py``) and the live streams' tests use it; it has the
interface of pytest-django's live server (``url``, and its settings change)."""

from __future__ import annotations

import socket
import threading
import time


class AsgiLiveServer:
    def __init__(self, host: str = "localhost"):
        import uvicorn
        from django.test.utils import modify_settings

        from trix_site.asgi import application

        self.host = host
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        config = uvicorn.Config(
            application,
            lifespan="on",
            log_level="warning",
            timeout_graceful_shutdown=2,
            http="httptools",
        )
        self.server = uvicorn.Server(config)
        self._live_server_modified_settings = modify_settings(ALLOWED_HOSTS={"append": host})
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )
        self.thread.start()
        end = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > end:
                raise RuntimeError("the ASGI test server did not start")
            time.sleep(0.01)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def __str__(self) -> str:
        return self.url

    def __add__(self, other: str) -> str:
        return f"{self}{other}"
