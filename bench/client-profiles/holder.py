"""The ground-truth holder: one per trial, the parent of the client under measurement.

It makes itself a child subreaper (prctl PR_SET_CHILD_SUBREAPER, Linux >= 3.4, no privilege),
so every process the client's server leaves behind, re-parented or double-forked, stays its
descendant and can be listed and ended afterwards; it reaps what re-parents to it, so an exited
process is gone rather than a zombie. Driven by lines on stdin:
  stop       forwarded to the client's stdin (the client stops its server and lives on)
  crash      SIGKILL to the client (the client dies)
  survivors  one JSON line: the live descendants, the client itself left out
  cleanup    SIGKILL to every descendant, reap, print {"clean": ...}, exit
The client's own stdout lines (its ready / stopped reports) are passed through as they come.
"""

import ctypes
import json
import os
import signal
import subprocess
import sys
import threading

PR_SET_CHILD_SUBREAPER = 36


def stat(pid):
    """(ppid, state, start time) from /proc/PID/stat, or None once the process is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            text = f.read().decode("utf-8", "replace")
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), fields[0], int(fields[19])


def cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return [a.decode("utf-8", "replace") for a in f.read().split(b"\0") if a]
    except OSError:
        return []


def descendants(root):
    """Every live (not zombie) process whose parent chain reaches root, with its identity."""
    parent = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            s = stat(int(name))
            if s is not None:
                parent[int(name)] = s
    out = []
    for pid, (ppid, state, start) in parent.items():
        seen, p = 0, ppid
        while p > 1 and p != root and p in parent and seen < 64:
            p, seen = parent[p][0], seen + 1
        if p == root and state != "Z":
            out.append({"pid": pid, "start": start, "ppid": ppid, "cmd": cmdline(pid)})
    return out


def reap_forever():
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            threading.Event().wait(0.05)


def main():
    if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.exit(f"holder: prctl(PR_SET_CHILD_SUBREAPER) failed: errno {ctypes.get_errno()}")
    client = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    me = os.getpid()

    def relay():
        for line in client.stdout:
            sys.stdout.write(line.decode("utf-8", "replace"))
            sys.stdout.flush()

    threading.Thread(target=relay, daemon=True).start()
    threading.Thread(target=reap_forever, daemon=True).start()
    for line in sys.stdin:
        command = line.strip()
        if command == "stop":
            client.stdin.write(b"stop\n")
            client.stdin.flush()
        elif command == "crash":
            os.kill(client.pid, signal.SIGKILL)
        elif command == "survivors":
            live = [d for d in descendants(me) if d["pid"] != client.pid]
            print(json.dumps({"survivors": live}), flush=True)
        elif command == "cleanup":
            break
    # Cleanup: SIGKILL by identity (pid and start time), until none is left.
    for _ in range(100):
        left = descendants(me)
        if not left:
            break
        for d in left:
            s = stat(d["pid"])
            if s is not None and s[2] == d["start"]:
                try:
                    os.kill(d["pid"], signal.SIGKILL)
                except ProcessLookupError:
                    pass
        threading.Event().wait(0.05)
    print(json.dumps({"clean": not descendants(me)}), flush=True)


if __name__ == "__main__":
    main()
