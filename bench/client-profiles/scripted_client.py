"""Independent stand-ins for the clients whose own code cannot run here: each function spawns
and stops a server the way its client's source (or, for Claude Code, its tracker) says,
step by step, written from docs/client-profiles.md and not from the harness's code.

  python3 scripted_client.py <vscode|vscode@ce34ccc3|zed|codex|codex@drop|goose|claude-code|amazon-q|claude-code-reconnect|claude-desktop|cursor> <command> [args...]

Every one of these clients pipes the server's stderr and reads it into its logs, so once the
client dies a server's stderr writes fail (EPIPE) as they do under the real client.

Reports {"ready", "child", "helper"} once the opening is done, waits for "stop" on stdin, stops
the server, reports {"stopped"} and lives on holding its pipe ends.
"""

import ctypes
import os
import shlex
import signal
import subprocess
import sys
import time

from raw_session import RawSession, live_forever, report, wait_for_stop_command

PR_SET_PDEATHSIG = 1
CODEX_ENV = ["HOME", "LOGNAME", "PATH", "SHELL", "USER", "__CF_USER_TEXT_ENCODING", "LANG", "LC_ALL", "TERM", "TMPDIR", "TZ"]


def ppid_map():
    out = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    text = f.read()
                out[int(name)] = int(text[text.rindex(")") + 2 :].split()[1])
            except (OSError, ValueError):
                pass
    return out


def children_of(pid, parents):
    return [p for p, pp in parents.items() if pp == pid]


def wait_exit(proc, ms):
    """Waits up to ms for the direct child to exit (reaping it, as the client's runtime does)."""
    deadline = time.monotonic() + ms / 1000
    while proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    return proc.poll() is not None


def group_exists(pgid):
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def killpg(pgid, sig):
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        pass


def kill(pid, sig):
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


# VS Code: extHostMcpNode.startNodeMpc spawns with stdio 'pipe' and env = process.env + config;
# McpStdioStateHandler.stop ends stdin, killPolite (SIGTERM) after 10 s, killForceful after 10 s
# more: killTree -> terminateProcess.sh, a pgrep -P recursion that kill -9s children before
# parents. The child's exit disposes the handler, cancelling whatever timer is pending.
def vscode_spawn(argv):
    return subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ))


def vscode_stop(proc):
    proc.stdin.close()
    if wait_exit(proc, 10_000):
        return
    kill(proc.pid, signal.SIGTERM)
    if wait_exit(proc, 10_000):
        return

    def terminate_tree(pid, parents):
        for child in children_of(pid, parents):
            terminate_tree(child, parents)
        kill(pid, signal.SIGKILL)

    terminate_tree(proc.pid, ppid_map())


# Zed: StdioTransport::new runs the command through the system shell as a util::process::Child
# (setsid in pre_exec), env inherited; Drop kills it: kill_descendant_tree (a /proc PPid walk,
# SIGKILL to each descendant) then killpg(pid, SIGKILL). Stdin closes when the transport's
# writer task ends after the drop.
def zed_spawn(argv):
    shell = os.environ.get("SHELL") or "/bin/sh"
    line = " ".join(shlex.quote(a) for a in argv)
    return subprocess.Popen([shell, "-c", line], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ), start_new_session=True)


def zed_stop(proc):
    parents = ppid_map()
    queue, found = [proc.pid], []
    while queue:
        for child in children_of(queue.pop(), parents):
            found.append(child)
            queue.append(child)
    for pid in found:
        kill(pid, signal.SIGKILL)
    killpg(proc.pid, signal.SIGKILL)
    proc.stdin.close()


# Codex: launch_server spawns with ProcessMode::NewGroup and only create_env_for_mcp_server's
# names; StdioServerTransport::close terminates first: killpg SIGTERM, poll the group every
# 10 ms, killpg SIGKILL once 2 s have passed with the group still there, all within the 3 s
# retirement bound; the exit observer reaps the child meanwhile; then stdin is closed.
def codex_spawn(argv):
    env = {k: os.environ[k] for k in CODEX_ENV if k in os.environ}
    return subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, process_group=0)


def codex_stop(proc):
    pgid = proc.pid
    killpg(pgid, signal.SIGTERM)
    start, escalated = time.monotonic(), False
    while time.monotonic() - start < 3.0:
        proc.poll()
        if not group_exists(pgid):
            break
        if not escalated and time.monotonic() - start >= 2.0:
            killpg(pgid, signal.SIGKILL)
            escalated = True
        time.sleep(0.01)
    proc.stdin.close()


# VS Code, the other McpStdioStateHandler (ce34ccc3): killPolite calls killTree(pid, false), which
# runs terminateProcess.sh with the pid and "15"; the script kill -9s every argument's tree, so the
# polite step at 10 s is already a SIGKILL to the tree (and the forceful one at 20 s the same).
def vscode_tree_kill_stop(proc):
    def sigkill_tree(pid, parents):
        for child in children_of(pid, parents):
            sigkill_tree(child, parents)
        kill(pid, signal.SIGKILL)

    proc.stdin.close()
    for _ in range(2):
        if wait_exit(proc, 10000):
            return
        sigkill_tree(proc.pid, ppid_map())


# Codex, the drop path (StdioServerProcessHandleInner's Drop -> LocalProcessTerminator::terminate):
# killpg SIGTERM; if the group was there, a thread that sleeps 2 s and then killpg SIGKILLs it
# without looking again; the transport dropped beside the handle closes stdin at the same time.
def codex_drop_stop(proc):
    pgid = proc.pid
    existed = group_exists(pgid)
    killpg(pgid, signal.SIGTERM)
    proc.stdin.close()
    if existed:
        time.sleep(2.0)
        killpg(pgid, signal.SIGKILL)


# Goose: configure_subprocess puts the child in its own group (process_group(0)) and, on Linux,
# sets PR_SET_PDEATHSIG SIGTERM before exec (checking the parent did not die meanwhile); env is
# inherited. rmcp's TokioChildProcess::graceful_shutdown closes the transport (stdin), waits up
# to 3 s for the child, then kills it (the direct child: the group is set on the Command, not
# through a process-wrap group wrapper).
def goose_spawn(argv):
    parent = os.getpid()
    libc = ctypes.CDLL(None, use_errno=True)

    def before_exec():
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl")
        if os.getppid() != parent:
            os._exit(1)

    return subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ), process_group=0, preexec_fn=before_exec)


def goose_stop(proc):
    proc.stdin.close()
    if not wait_exit(proc, 3000):
        kill(proc.pid, signal.SIGKILL)
        wait_exit(proc, 3000)


# Claude Code (observed, anthropics/claude-code #16744, #40207): SIGINT, SIGTERM, SIGKILL to the
# direct child, no stdin close first; the waits are not in the tracker (500 ms each here). Its
# Bun runtime's node:child_process destroys the child's stdin when the child exits.
def claude_code_spawn(argv):
    return subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ))


def claude_code_stop(proc):
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL):
        kill(proc.pid, sig)
        if wait_exit(proc, 500):
            break
    if proc.poll() is not None:
        proc.stdin.close()


# Amazon Q Developer CLI 1.19.7: McpClientService::into_service builds a tokio Command with the
# configured env and then every variable of its own (so the whole environment), process_group(0),
# stderr piped and read into its log, stdin and stdout piped (rmcp 0.8.2 TokioChildProcess). Its
# one stop while it lives on, ToolManager::swap_agent, cancels each RunningService: the serve loop
# closes the transport, which is TokioChildProcess::graceful_shutdown: drop the stdin writer, wait
# up to 3 s for the child, then kill it (the direct child: no process-wrap group wrapper is used).
def amazon_q_spawn(argv):
    return subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ), process_group=0)


def amazon_q_stop(proc):
    proc.stdin.close()
    if not wait_exit(proc, 3000):
        kill(proc.pid, signal.SIGKILL)
        wait_exit(proc, 3000)


# Claude Code's /mcp reconnect of an unchanged entry (observed, anthropics/claude-code #79740):
# it closes the old server's stdin and waits for it to exit before it spawns the new one. How
# long it waits is not in the report: 5 s here. Nothing else is sent.
def claude_code_reconnect_stop(proc):
    proc.stdin.close()
    wait_exit(proc, 5000)


# Claude Desktop replacing a server (observed, claude-code #88514): the old one gets neither EOF
# nor a signal while the app runs. Its spawn is not known; the Claude Code stand-in's is used.
def claude_desktop_stop(proc):
    pass


# Cursor (observed: lark-openapi-mcp #61, azure-devops-mcp #1598): it closes the server's stdin
# and sends no signal.
def cursor_stop(proc):
    proc.stdin.close()


CLIENTS = {
    "vscode": (vscode_spawn, vscode_stop),
    "vscode@ce34ccc3": (vscode_spawn, vscode_tree_kill_stop),
    "zed": (zed_spawn, zed_stop),
    "codex": (codex_spawn, codex_stop),
    "codex@drop": (codex_spawn, codex_drop_stop),
    "goose": (goose_spawn, goose_stop),
    "claude-code": (claude_code_spawn, claude_code_stop),
    "amazon-q": (amazon_q_spawn, amazon_q_stop),
    "claude-code-reconnect": (claude_code_spawn, claude_code_reconnect_stop),
    "claude-desktop": (claude_code_spawn, claude_desktop_stop),
    "cursor": (claude_code_spawn, cursor_stop),
}


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in CLIENTS:
        sys.exit(f"usage: scripted_client.py <{'|'.join(CLIENTS)}> <command> [args...]")
    spawn, stop = CLIENTS[sys.argv[1]]
    proc = spawn(sys.argv[2:])
    helper = RawSession(proc).open()
    report(ready=True, child=proc.pid, helper=helper)
    wait_for_stop_command()
    started = time.monotonic()
    stop(proc)
    report(stopped=True, ms=round((time.monotonic() - started) * 1000))
    live_forever()


if __name__ == "__main__":
    main()
