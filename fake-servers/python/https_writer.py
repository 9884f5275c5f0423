#!/usr/bin/env python3
"""py-https-writer: a fake MCP stdio server in Python with urllib (standard library only), the
oracle for the drill remote's HTTPS from a Python runtime. Raw newline-delimited JSON-RPC 2.0.

The same three tools as fake-servers/go-http: `write` (POST $FAKE_API_URL/actions, a
configurable HTTPS base URL; urllib's default SSL context loads OpenSSL's default paths, which
SSL_CERT_FILE names), `write-hardcoded` (POST https://api.example.invalid/actions, reached only
through HTTPS_PROXY: urllib.request.getproxies reads it and tunnels with CONNECT) and `create`
(a pod by name, no Idempotency-Key; 409 counts as done). FAKE_KEYLESS=1 drops the key. On stdin
EOF it refuses new calls, lets its requests in flight settle (1 s at most) and exits 0.
"""

import json
import os
import sys
import threading
import time
import urllib.error
import urllib.request

NAME = "py-https-writer"
HARDCODED_HOST = "https://api.example.invalid"
CORRELATION_KEY = "dev.crash-drill/correlation-id"

out_lock = threading.Lock()
state = threading.Condition()
stopping = False
inflight = 0


def send(message):
    line = json.dumps(message, separators=(",", ":")) + "\n"
    try:
        with out_lock:
            sys.stdout.write(line)
            sys.stdout.flush()
    except (BrokenPipeError, OSError, ValueError):
        pass  # the client is gone; the EOF on stdin ends the server


def text(s, is_error=False):
    return {"content": [{"type": "text", "text": s}], "isError": is_error}


OP_TARGET = {"type": "object", "properties": {"op": {"type": "string"}, "target": {"type": "string"}}, "required": ["op", "target"]}
NAMED = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
TOOLS = [
    {"name": "write", "description": "POST /actions at FAKE_API_URL", "inputSchema": OP_TARGET},
    {"name": "write-hardcoded", "description": "POST /actions at the hard-coded host", "inputSchema": OP_TARGET},
    {"name": "create", "description": "create a pod by name at FAKE_API_URL", "inputSchema": NAMED},
]


def post(url, body, key):
    token = os.environ.get("FAKE_API_TOKEN") or os.environ.get("CRASH_DRILL_TOKEN", "")
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    if key and os.environ.get("FAKE_KEYLESS") != "1":
        headers["Idempotency-Key"] = key
        headers["X-Correlation-Id"] = key
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return text("done " + response.read().decode("utf-8", "replace"))
    except urllib.error.HTTPError as error:
        if error.code == 409:
            return text("exists")  # created before: the write is done
        return text(f"write failed: HTTP {error.code}", True)
    except Exception as error:  # network and TLS errors: the tool fails, the server lives on
        return text(f"write failed: {error}", True)


def call(params):
    args = params.get("arguments") or {}
    key = (params.get("_meta") or {}).get(CORRELATION_KEY)
    base = os.environ.get("FAKE_API_URL", "")
    name = params.get("name")
    if name == "write":
        if not base:
            return text("write failed: FAKE_API_URL is not set", True)
        return post(f"{base}/actions", {"op": args.get("op"), "target": args.get("target")}, key)
    if name == "write-hardcoded":
        return post(f"{HARDCODED_HOST}/actions", {"op": args.get("op"), "target": args.get("target")}, key)
    if name == "create":
        if not base:
            return text("create failed: FAKE_API_URL is not set", True)
        pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": args.get("name")}}
        return post(f"{base}/api/v1/namespaces/default/pods", pod, None)
    return None


def run_call(msg_id, params):
    global inflight
    try:
        result = call(params)
        if result is None:
            send({"jsonrpc": "2.0", "id": msg_id, "error": {"code": -32602, "message": "unknown tool"}})
        else:
            send({"jsonrpc": "2.0", "id": msg_id, "result": result})
    finally:
        with state:
            inflight -= 1
            state.notify_all()


def handle(msg):
    global inflight
    method = msg.get("method")
    msg_id = msg.get("id")
    params = msg.get("params") or {}
    if method == "initialize":
        version = params.get("protocolVersion") or "2025-06-18"
        result = {"protocolVersion": version, "capabilities": {"tools": {}}, "serverInfo": {"name": NAME, "version": "1.0.0"}}
        send({"jsonrpc": "2.0", "id": msg_id, "result": result})
    elif method == "ping":
        send({"jsonrpc": "2.0", "id": msg_id, "result": {}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": msg_id, "result": {"tools": TOOLS}})
    elif method == "tools/call":
        with state:
            if stopping:
                send({"jsonrpc": "2.0", "id": msg_id, "result": text("server is shutting down", True)})
                return
            inflight += 1
        threading.Thread(target=run_call, args=(msg_id, params), daemon=True).start()
    elif msg_id is not None:
        send({"jsonrpc": "2.0", "id": msg_id, "error": {"code": -32601, "message": f"method not found: {method}"}})


def main():
    global stopping
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if isinstance(msg, dict):
            handle(msg)
    # EOF: no new call, the ones in flight settle (1 s at most), then exit.
    deadline = time.monotonic() + 1.0
    with state:
        stopping = True
        while inflight > 0 and time.monotonic() < deadline:
            state.wait(deadline - time.monotonic())
    sys.stderr.write(f"[{NAME}] stdin closed: exiting\n")
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
