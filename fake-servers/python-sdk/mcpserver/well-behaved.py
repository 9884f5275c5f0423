"""mcpserver-well-behaved: an MCPServer (mcp 2.3.0) as its docs write one, and nothing more.

The SDK serves both eras on stdio and returns from run() on stdin EOF; the interpreter then
exits 0. The reference that passes every check.
"""

import subprocess

from mcp.server.mcpserver import MCPServer

app = MCPServer("mcpserver-well-behaved")


@app.tool()
def echo(text: str) -> str:
    """Answers with the text it was given."""
    return text


@app.tool(name="run-helper")
def run_helper() -> str:
    """Runs a short child process to its end and answers "helper done"."""
    subprocess.run(["sleep", "0.05"], check=True)
    return "helper done"


app.run()
