"""fastmcp-popen-child: `spawn-helper` starts `sleep 300` with subprocess.Popen and never ends it.

The server exits on EOF as FastMCP makes it; nothing ends the child, which lives on (re-parented),
like any helper a tool leaves behind. `no-survivors` fails.
"""

import subprocess

from fastmcp import FastMCP

app = FastMCP("fastmcp-popen-child")


@app.tool(name="spawn-helper")
def spawn_helper() -> str:
    """Starts one long-lived helper process and answers "helper <pid>"."""
    return f"helper {subprocess.Popen(['sleep', '300']).pid}"


# No banner: FastMCP's banner asks PyPI for a newer version (the network, a cache file in HOME).
app.run(show_banner=False)
