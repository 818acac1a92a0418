"""A web app under uvicorn on a free loopback port, in a thread, for browser tests."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def live_server(app) -> Iterator[str]:
    """Serve ``app`` until the block ends; yields its base URL."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    port = sock.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    ready = threading.Event()
    while not srv.started and thread.is_alive():
        ready.wait(0.05)
    assert srv.started, "uvicorn did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(timeout=30)
        sock.close()
