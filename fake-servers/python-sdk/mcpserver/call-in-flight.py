"""mcpserver-call-in-flight: `slow` awaits `ms` milliseconds, long enough to be in flight at the kill.

On EOF the SDK cancels the handlers still running (python-sdk #2678) and answers
their calls with -32000 "Connection closed"; after a crash that write meets a closed pipe and
the server dies of BrokenPipeError, on its own. Passes every check with a call in flight.
"""

import anyio

from mcp.server.mcpserver import MCPServer

app = MCPServer("mcpserver-call-in-flight")


@app.tool()
async def slow(ms: int) -> str:
    """Answers "done" after `ms` milliseconds."""
    await anyio.sleep(ms / 1000)
    return "done"


app.run()
