"""An app served by uvicorn in a thread on a loopback socket that listens before the thread starts,
so a client may connect at once (it waits in the backlog until the server accepts): nothing polls."""

from __future__ import annotations

import socket
import threading


class Served:
    """``app`` served on a free loopback port (``url``) until ``stop``."""

    def __init__(self, app) -> None:
        import uvicorn

        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen(128)
        self.port = self.socket.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True)
        self.thread.start()
        # every list's other prior loads in the background, a 503 "warming_up" until then: a test
        # asserting a first answer would meet one on a loaded machine (the page itself retries)
        app.state.lists.warmup.wait_all()

    def stop(self) -> None:
        """Stop serving and close the socket (a new connection is refused), or fail if it does not stop."""
        self.server.should_exit = True
        self.thread.join(timeout=30)
        self.socket.close()
        assert not self.thread.is_alive(), "the server did not stop"
