/**
 * The server's runtime and MCP SDK as the drill read them (evidence `diagnosis-facts`, label
 * `start`), and what that SDK is known to do at stdin EOF, with the public issue that says so.
 */
import { eventsOf, firstOf, type DrillEvidence, type RuntimeFacts } from '../../evidence/types.js';

export interface SdkFinding {
  /** One line: the runtime, the SDK package and version, and what the version was read from. */
  line: string;
  /** The SDK's known behaviour at stdin EOF, with its issue; null when none is on record. */
  known: string | null;
  runtime: RuntimeFacts['runtime'] | null;
  /** Which family the SDK belongs to, for the diagnosis's choice of fix. */
  family: 'ts-sdk-1' | 'ts-sdk-2' | 'python-sdk' | 'fastmcp' | null;
}

export function runtimeOf(evidence: DrillEvidence): RuntimeFacts | null {
  return eventsOf(evidence, 'diagnosis-facts').find((e) => e.label === 'start')?.runtime ?? null;
}

export function sdkFinding(evidence: DrillEvidence): SdkFinding {
  const runtime = runtimeOf(evidence);
  if (!runtime) return { line: 'runtime and SDK not read (the handshake did not complete, or an older log)', known: null, runtime: null, family: null };
  const rt = `${runtime.runtime === 'other' ? (runtime.exe ?? 'unknown runtime') : runtime.runtime}${runtime.version ? ` ${runtime.version}` : ''}`;
  const sdks = runtime.sdks.map((p) => `${p.name} ${p.version} (${p.file})`);
  // serverInfo is what the server says of itself in the handshake (an SDK may fill in its own version).
  const hello = firstOf(evidence, 'handshake');
  const info = hello?.serverName ? `; serverInfo ${hello.serverName}${hello.serverVersion ? ` ${hello.serverVersion}` : ''}` : '';
  const line = `${rt}${info}; ${sdks.length > 0 ? `MCP SDK: ${sdks.join(', ')}` : 'no MCP SDK package found near the command'}`;
  const ts1 = runtime.sdks.find((p) => p.name === '@modelcontextprotocol/sdk' && /^1\./.test(p.version));
  const ts2 = runtime.sdks.find((p) => p.name === '@modelcontextprotocol/server');
  const fastmcp = runtime.sdks.find((p) => p.name === 'fastmcp');
  const mcp = runtime.sdks.find((p) => p.name === 'mcp');
  if (ts1 && !ts2)
    return {
      line,
      runtime: runtime.runtime,
      family: 'ts-sdk-1',
      known: `TypeScript SDK ${ts1.version}: StdioServerTransport listens to stdin 'data' and 'error' only, never 'end' (typescript-sdk #2002), so the server exits on EOF only when nothing else keeps its event loop alive`,
    };
  if (ts2)
    return {
      line,
      runtime: runtime.runtime,
      family: 'ts-sdk-2',
      known: `TypeScript SDK 2 (${ts2.version}): the stdio transport closes itself on stdin end and aborts in-flight requests; what keeps the process up after that is the server's own`,
    };
  if (mcp || fastmcp)
    return {
      line,
      runtime: runtime.runtime,
      family: fastmcp ? 'fastmcp' : 'python-sdk',
      known: `Python SDK${mcp ? ` mcp ${mcp.version}` : ''}${fastmcp ? ` (FastMCP ${fastmcp.version})` : ''}: run() returns at stdin EOF and cancels in-flight handlers, whose responses are lost (python-sdk #2678); the interpreter then exits unless a non-daemon thread or a child keeps it`,
    };
  return { line, known: null, runtime: runtime.runtime, family: null };
}
