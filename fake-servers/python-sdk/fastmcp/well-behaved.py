"""fastmcp-well-behaved: a FastMCP 4.0.10 server as its docs write one, and nothing more.

FastMCP serves over the mcp SDK's stdio transport (both eras) and returns from run() on stdin
EOF; the interpreter then exits 0. The reference that passes every check.
"""

import subprocess

from fastmcp import FastMCP

app = FastMCP("fastmcp-well-behaved")


@app.tool
def echo(text: str) -> str:
    """Answers with the text it was given."""
    return text


@app.tool(name="run-helper")
def run_helper() -> str:
    """Runs a short child process to its end and answers "helper done"."""
    subprocess.run(["sleep", "0.05"], check=True)
    return "helper done"


# No banner: FastMCP's banner asks PyPI for a newer version (the network, a cache file in HOME).
app.run(show_banner=False)
