"""A TCP proxy on 127.0.0.1 that can take a server away in the two ways networks do (stdlib only).

Import it as ``from tcp_proxy import TcpProxy`` (``tests`` is on the import path). Tests point
pbp at ``proxy.port`` instead of the server's port, then switch the proxy's mode:

- ``"forward"``: bytes go both ways, as if the proxy were not there.
- ``"refuse"``: the server is down: every open connection is reset, and new ones are refused
  (the listening port is closed until the mode changes again).
- ``"silent"``: the server hangs, or a firewall drops its packets: new connections are
  accepted and never answered, and open ones stop carrying bytes either way (nothing is
  closed, so a client waits for as long as it is willing to).

Going back to ``"forward"`` closes the connections held silent (what a client sent into them
is lost, as it would be) and serves new ones as before. ``connections`` counts what was
accepted, so a test can tell the client did try.
"""

from __future__ import annotations

import contextlib
import select
import socket
import struct
import threading
from typing import Literal

Mode = Literal["forward", "refuse", "silent"]
_CHUNK = 65536
_TICK = 0.05  # seconds between two looks at the mode


class TcpProxy:
    """``with TcpProxy(port_of_server) as proxy:`` serves on ``proxy.port``."""

    def __init__(self, target_port: int, *, target_host: str = "127.0.0.1") -> None:
        self.target = (target_host, target_port)
        self.mode: Mode = "forward"
        self.connections = 0
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._listener: socket.socket | None = None
        self._port = 0
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []

    @property
    def port(self) -> int:
        assert self._port, "start() the proxy first"
        return self._port

    def start(self) -> TcpProxy:
        self._listen()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._close_listener()
        with self._lock:
            for sock in list(self._open):
                _close(sock)
            self._open.clear()

    def __enter__(self) -> TcpProxy:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def set_mode(self, mode: Mode) -> None:
        """Switch the proxy (see the module docstring)."""
        with self._lock:
            before, self.mode = self.mode, mode
            held = list(self._open) if mode != before and mode != "silent" else []
            if held:
                self._open.difference_update(held)
        for sock in held:
            _reset(sock) if mode == "refuse" else _close(sock)
        if mode == "refuse":
            self._close_listener()
        elif self._listener is None and not self._stopping.is_set():
            self._listen()

    # -- inside ---------------------------------------------------------------------------------

    def _listen(self) -> None:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self._port))
        listener.listen(64)
        listener.settimeout(_TICK)
        self._port = listener.getsockname()[1]
        self._listener = listener
        thread = threading.Thread(target=self._accept, args=(listener,), daemon=True)
        thread.start()
        self._threads.append(thread)

    def _close_listener(self) -> None:
        listener, self._listener = self._listener, None
        if listener is not None:
            _close(listener)

    def _accept(self, listener: socket.socket) -> None:
        while not self._stopping.is_set() and self._listener is listener:
            try:
                client, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return  # closed: refusing, or stopped
            self.connections += 1
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        with self._lock:
            self._open.add(client)
            silent = self.mode == "silent"
        server: socket.socket | None = None
        if not silent:
            try:
                server = socket.create_connection(self.target, timeout=5)
            except OSError:
                self._drop(client)
                _reset(client)
                return
            with self._lock:
                self._open.add(server)
        self._pump(client, server)

    def _pump(self, client: socket.socket, server: socket.socket | None) -> None:
        """Carry bytes both ways while forwarding; carry nothing while silent."""
        ends = [client] if server is None else [client, server]
        try:
            while not self._stopping.is_set():
                with self._lock:
                    if any(end not in self._open for end in ends):
                        return  # closed by a change of mode
                    mode = self.mode
                if server is None or mode == "silent":
                    self._stopping.wait(_TICK)
                    continue
                readable, _, _ = select.select(ends, [], [], _TICK)
                for end in readable:
                    data = end.recv(_CHUNK)
                    if not data:
                        return
                    (server if end is client else client).sendall(data)
        except OSError:
            return
        finally:
            for end in ends:
                self._drop(end)
                _close(end)

    def _drop(self, sock: socket.socket) -> None:
        with self._lock:
            self._open.discard(sock)


def _close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        sock.close()


def _reset(sock: socket.socket) -> None:
    """Close with a TCP reset (the peer reads 'connection reset', as from a dead server)."""
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    with contextlib.suppress(OSError):
        sock.close()
