#!/usr/bin/env python3
"""py-well-behaved: the non-Node reference subject, standard library only.

Speaks raw newline-delimited JSON-RPC 2.0 on stdio (MCP stdio transport: one message a line,
no embedded newlines) and exposes the same six tools as the Node fake servers (`write` and
`start-job` talk to the drill remote, see remote_client.py). On stdin EOF, a BrokenPipeError on
stdout, or SIGTERM it stops taking calls, lets its remote requests in flight settle and cancels
its remote jobs (within 0.5 s), terminates its children (SIGTERM, wait, SIGKILL after 1 s),
stops its timers and exits 0, printing
`crash-drill-fake exit mono=<ms>` to stderr first. time.monotonic() reads CLOCK_MONOTONIC on
Linux, the clock Node's process.hrtime reads, so the number compares with the harness's.
"""

import json
import os
import signal
import subprocess
import sys
import threading
import time

# Importing a sibling module would otherwise leave a __pycache__ folder in the source tree.
sys.dont_write_bytecode = True
from remote_client import CORRELATION_META_KEY, RemoteClient, ToolFailure

NAME = "py-well-behaved"
ACCEPTED_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
DEFAULT_VERSION = "2025-06-18"
CHILD_KILL_GRACE_S = 1.0
SUBSCRIPTION_TICK_S = 1.0
# A long-lived helper: another python that only sleeps. It inherits the environment, so it
# carries CRASH_DRILL_RUN like every descendant of a drill.
HELPER_ARGS = [sys.executable, "-c", "import time\nwhile True: time.sleep(60)"]

TOOLS = [
    {
        "name": "echo",
        "description": "Answers with the text it was given.",
        "inputSchema": {
            "type": "object",
            "properties": {"text": {"type": "string"}},
            "required": ["text"],
        },
        "annotations": {"readOnlyHint": True},
    },
    {
        "name": "spawn-helper",
        "description": 'Starts one long-lived helper process and answers "helper <pid>".',
        "inputSchema": {"type": "object", "properties": {}},
    },
    {
        "name": "slow",
        "description": 'Answers "done" after `ms` milliseconds (a call to kill in flight).',
        "inputSchema": {
            "type": "object",
            "properties": {"ms": {"type": "integer", "minimum": 0}},
            "required": ["ms"],
        },
    },
    {
        "name": "subscribe",
        "description": "Starts a live interval timer that ticks until shutdown.",
        "inputSchema": {"type": "object", "properties": {}},
    },
    {
        "name": "write",
        "description": 'POST /actions on the drill remote; answers "effect <id>".',
        "inputSchema": {
            "type": "object",
            "properties": {"op": {"type": "string"}, "target": {"type": "string"}},
            "required": ["op", "target"],
        },
    },
    {
        "name": "start-job",
        "description": 'POST /jobs on the drill remote (a long-running job); answers "job <id>".',
        "inputSchema": {"type": "object", "properties": {"op": {"type": "string"}}, "required": ["op"]},
    },
]
REMOTE_TOOLS = ("write", "start-job")


class RpcError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


def log(message):
    try:
        sys.stderr.write(f"[{NAME}] {message}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


class Server:
    def __init__(self):
        self.write_lock = threading.Lock()
        self.state_lock = threading.Lock()
        self.children = []
        self.stopping = threading.Event()  # set on shutdown: timers and slow calls stop
        self.shutdown_started = False
        self.remote = RemoteClient(os.environ, log)

    # -- output ---------------------------------------------------------------------------
    def send(self, message):
        line = json.dumps(message, separators=(",", ":")) + "\n"
        try:
            with self.write_lock:
                sys.stdout.buffer.write(line.encode("utf-8"))
                sys.stdout.buffer.flush()
        except (BrokenPipeError, OSError, ValueError):
            # The client is gone (EPIPE; Python ignores SIGPIPE by default).
            self.shutdown("stdout broken pipe")

    def reply(self, msg_id, result):
        self.send({"jsonrpc": "2.0", "id": msg_id, "result": result})

    def reply_error(self, msg_id, code, message):
        self.send({"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}})

    # -- tools ----------------------------------------------------------------------------
    def spawn_helper(self):
        # Under the lock, so a shutdown either sees this child or refuses the call: no helper
        # can slip in between the shutdown's snapshot of children and its exit.
        with self.state_lock:
            if self.shutdown_started:
                raise RpcError(-32603, "server is shutting down")
            child = subprocess.Popen(
                HELPER_ARGS,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            self.children.append(child)
        return child.pid

    def call_tool(self, name, args, correlation_id=None):
        if not isinstance(args, dict):
            raise RpcError(-32602, "arguments must be an object")
        if name == "echo":
            text = args.get("text")
            if not isinstance(text, str):
                raise RpcError(-32602, "echo: text must be a string")
            return text
        if name == "spawn-helper":
            return f"helper {self.spawn_helper()}"
        if name == "slow":
            ms = args.get("ms")
            if isinstance(ms, bool) or not isinstance(ms, int) or ms < 0:
                raise RpcError(-32602, "slow: ms must be a non-negative integer")
            if self.stopping.wait(ms / 1000.0):
                return None  # shutting down: no answer
            return "done"
        if name == "subscribe":
            threading.Thread(target=self.tick, daemon=True).start()
            return "subscribed"
        if name == "write":
            op, target = args.get("op"), args.get("target")
            if not isinstance(op, str) or not isinstance(target, str):
                raise RpcError(-32602, "write: op and target must be strings")
            return self.remote.write(op, target, correlation_id)
        if name == "start-job":
            op = args.get("op")
            if not isinstance(op, str):
                raise RpcError(-32602, "start-job: op must be a string")
            return self.remote.start_job(op, correlation_id)
        raise RpcError(-32602, f"Tool {name} not found")

    def tick(self):
        # The live "subscription": ticks until shutdown sets `stopping`.
        while not self.stopping.wait(SUBSCRIPTION_TICK_S):
            pass

    def run_call(self, msg_id, params):
        meta = params.get("_meta")
        correlation_id = meta.get(CORRELATION_META_KEY) if isinstance(meta, dict) else None
        try:
            text = self.call_tool(params.get("name"), params.get("arguments") or {}, correlation_id or None)
        except RpcError as error:
            self.reply_error(msg_id, error.code, error.message)
            return
        except ToolFailure as error:
            if not self.stopping.is_set():
                self.reply(msg_id, {"content": [{"type": "text", "text": str(error)}], "isError": True})
            return
        if text is not None and not self.stopping.is_set():
            self.reply(msg_id, {"content": [{"type": "text", "text": text}]})

    # -- dispatch -------------------------------------------------------------------------
    def handle(self, message):
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            self.reply_error(message.get("id") if isinstance(message, dict) else None, -32600, "Invalid Request")
            return
        method = message.get("method")
        msg_id = message.get("id")
        params = message.get("params") or {}
        if method is None:
            return  # a response to something we never asked: ignore
        if "id" not in message:
            return  # notifications (initialized, cancelled, ...) need no answer
        if method == "initialize":
            requested = params.get("protocolVersion")
            version = requested if requested in ACCEPTED_VERSIONS else DEFAULT_VERSION
            self.reply(msg_id, {
                "protocolVersion": version,
                "capabilities": {"tools": {}},
                "serverInfo": {"name": NAME, "version": "0.1.0"},
            })
        elif method == "ping":
            self.reply(msg_id, {})
        elif method == "tools/list":
            self.reply(msg_id, {"tools": TOOLS})
        elif method == "tools/call":
            if params.get("name") in REMOTE_TOOLS:
                # Its request starts on a registered thread before the next line is read: a call
                # that was read is acted on even if stdin ends right after, and shutdown waits
                # for it (bounded) before it cancels jobs and exits.
                with self.state_lock:
                    refused = self.shutdown_started
                if refused:
                    text = "the server lost its client and starts no new write"
                    self.reply(msg_id, {"content": [{"type": "text", "text": text}], "isError": True})
                else:
                    self.remote.in_thread(self.run_call, msg_id, params)
            elif params.get("name") == "slow":
                # On its own thread, so pings and other calls are answered meanwhile.
                threading.Thread(target=self.run_call, args=(msg_id, params), daemon=True).start()
            else:
                # Synchronously, on the reading thread: a call that was read is acted on (the
                # helper spawned, the answer written) even if stdin reaches EOF right after it.
                self.run_call(msg_id, params)
        else:
            self.reply_error(msg_id, -32601, f"Method not found: {method}")

    def serve(self):
        for raw in sys.stdin.buffer:
            if self.stopping.is_set():
                break
            line = raw.strip()
            if not line:
                continue
            try:
                message = json.loads(line)
            except ValueError:
                self.reply_error(None, -32700, "Parse error")
                continue
            self.handle(message)
        self.shutdown("stdin end")

    # -- shutdown -------------------------------------------------------------------------
    def shutdown(self, reason):
        with self.state_lock:
            if self.shutdown_started:
                return
            self.shutdown_started = True
            children = list(self.children)
        log(f"shutting down ({reason})")
        self.stopping.set()  # stop taking calls, stop timers and slow calls
        self.remote.settle_and_cancel()
        for child in children:
            if child.poll() is None:
                child.terminate()
        for child in children:
            try:
                child.wait(timeout=CHILD_KILL_GRACE_S)
            except subprocess.TimeoutExpired:
                log(f"child {child.pid} ignored SIGTERM: SIGKILL")
                child.kill()
                child.wait()
        log("exit 0")
        try:
            sys.stderr.write(f"crash-drill-fake exit mono={time.monotonic() * 1000}\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        # os._exit: do not wait for worker threads, and do not let a flush of a broken stdout
        # at interpreter exit turn a clean exit into an error.
        os._exit(0)


def main():
    server = Server()
    # The handler only starts a thread: shutdown waits on children and must not run inside a
    # signal handler that interrupted the reading thread while it held a lock.
    signal.signal(
        signal.SIGTERM,
        lambda _sig, _frame: threading.Thread(target=server.shutdown, args=("SIGTERM",)).start(),
    )
    log(f"ready (pid {os.getpid()})")
    server.serve()


if __name__ == "__main__":
    main()
