"""A model hub on 127.0.0.1 for download tests, and a tiny static model to serve from it.

It answers the two requests pdfdesk makes: the repository's file list and each file's bytes. A
hub made with `fail_after` cuts every file off after that many bytes (the Content-Length promises
more), as a dropped connection would.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np

from pdfdesk.index import embedding


def tiny_static_model(dimensions: int = 8) -> dict[str, bytes]:
    """A model2vec folder's files: the built-in tokenizer with small random vectors."""
    from safetensors.numpy import save

    tokenizer = (embedding.bundled_folder() / "tokenizer.json").read_bytes()
    size = len(json.loads(tokenizer)["model"]["vocab"])
    vectors = np.random.default_rng(5).standard_normal((size, dimensions)).astype(np.float16)
    config = {"model_type": "model2vec", "architectures": ["StaticModel"], "hidden_dim": dimensions, "normalize": True}
    return {"config.json": json.dumps(config).encode(), "tokenizer.json": tokenizer,
            "model.safetensors": save({"embeddings": vectors}), "README.md": b"# tiny test model\n"}


class _Hub(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, repos: dict[str, dict[str, bytes]], fail_after: int | None) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.repos, self.fail_after = repos, fail_after
        self.requests: list[str] = []


class _Handler(BaseHTTPRequestHandler):
    server: _Hub

    def log_message(self, *_args: object) -> None:
        pass

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        self.server.requests.append(path)
        for repo, files in self.server.repos.items():
            if path == f"/api/models/{repo}/revision/main":
                body = json.dumps({"siblings": [{"rfilename": n, "size": len(b)} for n, b in files.items()]}).encode()
                return self._send(body, len(body))
            prefix = f"/{repo}/resolve/main/"
            if path.startswith(prefix) and path[len(prefix):] in files:
                data = files[path[len(prefix):]]
                cut = self.server.fail_after
                return self._send(data if cut is None else data[:cut], len(data))
        self.send_error(404)

    def _send(self, body: bytes, length: int) -> None:
        self.send_response(200)
        self.send_header("Content-Length", str(length))
        self.end_headers()
        self.wfile.write(body)
        if len(body) < length:  # a connection dropped mid-file
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)


@contextmanager
def model_hub(repos: dict[str, dict[str, bytes]], fail_after: int | None = None) -> Iterator[_Hub]:
    """Serve `repos` ({"org/model": {file: bytes}}); the hub's address is `hub.url`."""
    hub = _Hub(repos, fail_after)
    hub.url = f"http://127.0.0.1:{hub.server_address[1]}"  # type: ignore[attr-defined]
    thread = threading.Thread(target=hub.serve_forever, daemon=True)
    thread.start()
    try:
        yield hub
    finally:
        hub.shutdown()
        hub.server_close()
        thread.join(5)
