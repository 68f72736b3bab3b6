# Part of the slmc project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""A minimal LSP client over a server's stdin/stdout (standard library only)."""
import json
import os
import queue
import subprocess
import threading
import time
import urllib.parse
import urllib.request


def uri(path):
    return "file://" + urllib.request.pathname2url(os.path.abspath(path))


def path_of(u):
    return urllib.request.url2pathname(urllib.parse.urlparse(u).path)


class LspError(Exception):
    pass


class Client:
    """Starts `argv` and speaks JSON-RPC to it. Notifications from the server
    are kept in order; requests from the server get a null result."""

    def __init__(self, argv, cwd=None, stderr=None):
        self.proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=stderr)
        self.next_id = 1
        self.incoming = queue.Queue()
        self.notifications = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.incoming.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            body = out.read(length)
            self.incoming.put(json.loads(body.decode("utf-8")))

    def _send(self, message):
        message["jsonrpc"] = "2.0"
        body = json.dumps(message).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method, params):
        self._send({"method": method, "params": params})

    def _next(self, deadline):
        timeout = deadline - time.monotonic()
        if timeout <= 0:
            raise LspError("timed out waiting for the server")
        try:
            m = self.incoming.get(timeout=timeout)
        except queue.Empty:
            raise LspError("timed out waiting for the server")
        if m is None:
            raise LspError("the server closed its output (exit code %s)"
                           % self.proc.poll())
        if "method" in m and "id" in m:  # a request from the server
            self._send({"id": m["id"], "result": None})
        elif "method" in m:
            self.notifications.append(m)
        return m

    def request(self, method, params, timeout=120):
        rid = self.next_id
        self.next_id += 1
        self._send({"id": rid, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while True:
            m = self._next(deadline)
            if m.get("id") == rid and "method" not in m:
                if "error" in m:
                    raise LspError("%s: %s" % (method, m["error"]))
                return m.get("result")

    def wait_notification(self, predicate, timeout=120):
        """The first notification (already received or coming) that
        satisfies `predicate`; it is consumed."""
        deadline = time.monotonic() + timeout
        while True:
            for i, n in enumerate(self.notifications):
                if predicate(n):
                    return self.notifications.pop(i)
            self._next(deadline)

    def diagnostics(self, path, version=None, timeout=120):
        """The next publishDiagnostics for `path` (for `version` if given)."""
        u = uri(path)

        def match(n):
            if n["method"] != "textDocument/publishDiagnostics":
                return False
            p = n["params"]
            return p["uri"] == u and (version is None or p.get("version") == version)
        return self.wait_notification(match, timeout)["params"]["diagnostics"]

    def close(self, timeout=120):
        """shutdown + exit; returns the server's exit code."""
        self.request("shutdown", None, timeout)
        self.notify("exit", None)
        self.proc.stdin.close()
        return self.proc.wait(timeout)
