"""mcpserver-slow-start: sleeps FAKE_START_DELAY_MS (default 3000) before it loads the SDK.

What heavy imports do to a real server: the client's first message waits in the pipe until the
server reads it. Otherwise well-behaved: every verdict and the era must be the well-behaved
one's, whatever the delay.
"""

import os
import time

time.sleep(int(os.environ.get("FAKE_START_DELAY_MS", "3000")) / 1000)

from mcp.server.mcpserver import MCPServer  # noqa: E402 (the delay stands for the imports)

app = MCPServer("mcpserver-slow-start")


@app.tool()
def echo(text: str) -> str:
    """Answers with the text it was given."""
    return text


app.run()
