"""A real HTTP server in a thread for the hub's tests: serves named byte strings, and
misbehaves on request (a lying Content-Length, a stall mid-file, failures before success)."""
from __future__ import annotations

import http.server
import threading
from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Route:
    body: bytes
    send: int | None = None        # bytes actually sent (None: all); Content-Length says all
    fail_first: int = 0            # answer 500 to this many requests first
    stall: threading.Event | None = None  # after `send` bytes, wait for this, then close


@dataclass
class Served:
    routes: dict[str, Route] = field(default_factory=dict)
    hits: Counter = field(default_factory=Counter)
    base: str = ""

    def add(self, path: str, body: bytes, **how) -> str:
        self.routes[path] = Route(body, **how)
        return f"{self.base}/{path}"


def _handler(served: Served):
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):  # keep the test output clean
            pass

        def do_GET(self):
            path = self.path.lstrip("/")
            served.hits[path] += 1
            route = served.routes.get(path)
            if route is None:
                self.send_error(404)
                return
            if served.hits[path] <= route.fail_first:
                self.send_error(500, "flaky on purpose")
                return
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(len(route.body)))
            self.end_headers()
            self.wfile.write(route.body[:route.send])
            self.wfile.flush()
            if route.stall is not None:
                route.stall.wait(30)
            if route.send is not None:
                self.close_connection = True

    return Handler


def start() -> tuple[http.server.ThreadingHTTPServer, Served]:
    served = Served()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _handler(served))
    server.daemon_threads = True
    served.base = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, served


def install_third_party(entries: dict, factory) -> object:
    """A plugin host with every installed plugin plus a fake third-party one whose
    ``sporeling_add_models`` registers ``{name: Weights or None}`` built by ``factory``;
    returns the previous host (give it back to ``set_plugin_host`` afterwards)."""
    import types

    from sporeling.core import PluginHost, impl, set_plugin_host

    third = types.ModuleType("thirdparty_plugin")

    def add(models):
        for name, weights in entries.items():
            models.add_model(name, factory, description="a third party's net",
                             input_shape=(4,), weights=weights)
    third.sporeling_add_models = impl(add)
    host = PluginHost()
    host.add_plugins([("thirdparty", "thirdparty-nets", "1.0", third)])
    return set_plugin_host(host)
