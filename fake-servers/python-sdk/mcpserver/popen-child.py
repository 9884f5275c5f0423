"""mcpserver-popen-child: `spawn-helper` starts `sleep 300` with subprocess.Popen and never ends it.

The server exits on EOF as the SDK makes it; nothing ends the child, which lives on (re-parented),
like any helper a tool leaves behind. `no-survivors` fails.
"""

import subprocess

from mcp.server.mcpserver import MCPServer

app = MCPServer("mcpserver-popen-child")


@app.tool(name="spawn-helper")
def spawn_helper() -> str:
    """Starts one long-lived helper process and answers "helper <pid>"."""
    return f"helper {subprocess.Popen(['sleep', '300']).pid}"


app.run()
