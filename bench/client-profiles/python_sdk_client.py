"""The Python SDK's own stdio client (mcp 2.x, stdio_client + ClientSession), run as is.

  <venv>/bin/python python_sdk_client.py <command> [args...]

stdio_client spawns the server (start_new_session=True, get_default_environment()); leaving its
context runs the SDK's _stop_server_process. After that the client lives on, as a host does
when one server is disabled. Reports like scripted_client.py.
"""

import os
import sys
import time

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client

from raw_session import live_forever, report, wait_for_stop_command


def own_children():
    """The SDK does not expose the child's pid: read it from this process's children."""
    out = []
    for task in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{task}/children") as f:
            out += [int(p) for p in f.read().split()]
    return out


async def run(argv):
    params = StdioServerParameters(command=argv[0], args=argv[1:])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = [t.name for t in (await session.list_tools()).tools]
            helper = None
            if "spawn-helper" in tools:
                result = await session.call_tool("spawn-helper", {})
                helper = int(result.content[0].text.split()[-1])
            report(ready=True, child=own_children()[0], helper=helper)
            await anyio.to_thread.run_sync(wait_for_stop_command)
            started = time.monotonic()
    report(stopped=True, ms=round((time.monotonic() - started) * 1000))


if __name__ == "__main__":
    anyio.run(run, sys.argv[1:])
    live_forever()
