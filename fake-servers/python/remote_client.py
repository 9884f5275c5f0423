"""The drill remote, as py-well-behaved talks to it (harness/remote/README.md): standard library
only. Every request runs on a thread of its own that is registered before it starts, so a
shutdown can wait for the requests in flight (bounded) and then cancel the jobs it started.
"""

import hashlib
import json
import threading
import time
import urllib.error
import urllib.request

CORRELATION_META_KEY = "dev.crash-drill/correlation-id"
# One budget for settling in-flight requests and cancelling jobs, as in the Node servers
# (fake-servers/lib/remote-on-loss.ts): an exit stays well within a 1.5 s deadline.
SETTLE_S = 0.5
REQUEST_TIMEOUT_S = 10.0


class ToolFailure(Exception):
    """A tool call that failed on the remote: answered as an MCP tool error (isError)."""


def idempotency_key(correlation_id, *parts):
    # The call's correlation id, else a hash of the operation, so a retry of the same logical
    # operation still dedups (same scheme as fake-servers/lib/remote-writes.ts).
    if correlation_id:
        return correlation_id
    return "fake-" + hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()[:32]


class RemoteClient:
    def __init__(self, env, log):
        self.url = env.get("CRASH_DRILL_REMOTE_URL") or None
        self.token = env.get("CRASH_DRILL_TOKEN") or None
        self.log = log
        self.lock = threading.Lock()
        self.inflight = set()
        self.jobs = []

    def request(self, method, path, body=None, headers=None):
        """Returns (status, parsed JSON body or None); raises ToolFailure on a network error."""
        if not self.url or not self.token:
            raise ToolFailure("CRASH_DRILL_REMOTE_URL or CRASH_DRILL_TOKEN is not set")
        all_headers = {"Authorization": f"Bearer {self.token}", **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            all_headers["Content-Type"] = "application/json"
        req = urllib.request.Request(self.url.rstrip("/") + path, data=data, headers=all_headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=REQUEST_TIMEOUT_S) as response:
                return response.status, _json(response.read())
        except urllib.error.HTTPError as error:  # a 4xx or 5xx answer is still an answer
            return error.code, _json(error.read())
        except (urllib.error.URLError, OSError) as error:
            raise ToolFailure(str(getattr(error, "reason", error))) from error

    def in_thread(self, target, *args):
        """Starts `target` on a registered thread: the request is under way when this returns."""
        thread = threading.Thread(target=self._run, args=(target, args), daemon=True)
        with self.lock:
            self.inflight.add(thread)
        thread.start()

    def _run(self, target, args):
        try:
            target(*args)
        finally:
            with self.lock:
                self.inflight.discard(threading.current_thread())

    def write(self, op, target, correlation_id):
        headers = {"Idempotency-Key": idempotency_key(correlation_id, "action", op, target)}
        if correlation_id:
            headers["X-Correlation-Id"] = correlation_id
        status, body = self._post("write", "/actions", {"op": op, "target": target}, headers)
        return f"effect {_id_or_fail('write', status, body)}"

    def start_job(self, op, correlation_id):
        headers = {"Idempotency-Key": idempotency_key(correlation_id, "job", op)}
        if correlation_id:
            headers["X-Correlation-Id"] = correlation_id
        status, body = self._post("start-job", "/jobs", {"op": op}, headers)
        job_id = _id_or_fail("start-job", status, body)
        if body.get("status") == "running":
            with self.lock:
                self.jobs.append(job_id)
        return f"job {job_id}"

    def _post(self, what, path, body, headers):
        try:
            return self.request("POST", path, body, headers)
        except ToolFailure as error:
            raise ToolFailure(f"{what} failed: {error}") from error

    def settle_and_cancel(self):
        """On shutdown: wait for requests in flight, then cancel every job, within SETTLE_S."""
        deadline = time.monotonic() + SETTLE_S
        self._join_inflight(deadline)
        with self.lock:
            jobs, self.jobs = self.jobs, []
        for job_id in jobs:
            self.in_thread(self._cancel, job_id)
        self._join_inflight(deadline)

    def _cancel(self, job_id):
        try:
            status, _body = self.request("POST", f"/jobs/{job_id}/cancel")
            self.log(f"cancel job {job_id}: HTTP {status}")
        except ToolFailure as error:
            self.log(f"cancel job {job_id} failed: {error}")

    def _join_inflight(self, deadline):
        me = threading.current_thread()  # a shutdown started from a worker must not wait on itself
        while True:
            with self.lock:
                waiting = [t for t in self.inflight if t is not me]
            remaining = deadline - time.monotonic()
            if not waiting or remaining <= 0:
                return
            waiting[0].join(remaining)


def _json(raw):
    try:
        return json.loads(raw) if raw else None
    except ValueError:
        return None


def _id_or_fail(what, status, body):
    value = body.get("id") if isinstance(body, dict) else None
    if status >= 300 or not isinstance(value, str):
        raise ToolFailure(f"{what} failed: HTTP {status}")
    return value
