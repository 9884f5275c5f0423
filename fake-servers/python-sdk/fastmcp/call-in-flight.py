"""fastmcp-call-in-flight: `slow` awaits `ms` milliseconds, long enough to be in flight at the kill.

On EOF the mcp SDK under FastMCP cancels the handlers still running (python-sdk #2678) and answers
their calls with -32000 "Connection closed"; after a crash that write meets a closed pipe and
the server dies of BrokenPipeError, on its own. Passes every check with a call in flight.
"""

import anyio

from fastmcp import FastMCP

app = FastMCP("fastmcp-call-in-flight")


@app.tool
async def slow(ms: int) -> str:
    """Answers "done" after `ms` milliseconds."""
    await anyio.sleep(ms / 1000)
    return "done"


# No banner: FastMCP's banner asks PyPI for a newer version (the network, a cache file in HOME).
app.run(show_banner=False)
