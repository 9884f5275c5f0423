"""mcpserver-new-session-child: `spawn-helper` starts `sleep 300` in a session of its own.

subprocess.Popen(start_new_session=True) calls setsid() in the child, as daemon-like helpers
do: it leaves the server's process group and session, so walking the group misses it (the
drill's marker, subreaper and cgroup still find it). The server exits on EOF; the child lives
on. `no-survivors` fails.
"""

import subprocess

from mcp.server.mcpserver import MCPServer

app = MCPServer("mcpserver-new-session-child")


@app.tool(name="spawn-helper")
def spawn_helper() -> str:
    """Starts one long-lived helper process in its own session and answers "helper <pid>"."""
    return f"helper {subprocess.Popen(['sleep', '300'], start_new_session=True).pid}"


app.run()
