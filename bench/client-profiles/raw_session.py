"""What every scripted client shares: the MCP opening over a server's pipes, and the reports.

Raw newline-delimited JSON-RPC on the pipes of a subprocess.Popen, so each scripted client is
free to spawn and stop its server exactly as the client it stands for does. The opening is the
same for all: initialize, initialized, tools/list, and spawn-helper when the server has it.
"""

import json
import os
import sys
import threading
import time


class RawSession:
    def __init__(self, proc):
        self.proc = proc
        self.lines = []
        self.cond = threading.Condition()
        # A client reads its server's stdout (and a piped stderr, into its logs) for as long as
        # it holds the pipes.
        threading.Thread(target=self._read, daemon=True).start()
        if proc.stderr is not None:
            threading.Thread(target=self._drain, args=(proc.stderr,), daemon=True).start()

    def _drain(self, stream):
        for _ in stream:
            pass

    def _read(self):
        for line in self.proc.stdout:
            with self.cond:
                self.lines.append(line)
                self.cond.notify_all()

    def request(self, rid, method, params, timeout=30.0):
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for line in self.lines:
                    try:
                        msg = json.loads(line)
                    except ValueError:
                        continue
                    if msg.get("id") == rid:
                        return msg
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no answer to {method}")
                self.cond.wait(left)

    def send(self, msg):
        self.proc.stdin.write((json.dumps(msg) + "\n").encode())
        self.proc.stdin.flush()

    def open(self):
        """The opening every client does; returns the helper's pid or None."""
        self.request(1, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "ground-truth", "version": "0"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        tools = self.request(2, "tools/list", {}).get("result", {}).get("tools", [])
        if not any(t.get("name") == "spawn-helper" for t in tools):
            return None
        text = self.request(3, "tools/call", {"name": "spawn-helper", "arguments": {}})["result"]["content"][0]["text"]
        return int(text.split()[-1])


def report(**fields):
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


def wait_for_stop_command():
    for line in sys.stdin:
        if line.strip() == "stop":
            return
    # The holder went away: nothing left to measure.
    os._exit(0)


def live_forever():
    """The client lives on, holding whatever pipe ends it still has, until the holder ends it."""
    threading.Event().wait()
