/** Which MCP SDK (go-sdk, mcp-go, or both) a Go program holds and at which version (a replacement's when replaced), from go-buildinfo.ts. */
import type { ByteSource } from './byte-source.js';
import { goBuildInfoOf } from './go-buildinfo.js';
import type { ProgramSdk } from './types.js';

/** The Go MCP SDKs by module path. */
export const GO_MCP_SDKS = ['github.com/modelcontextprotocol/go-sdk', 'github.com/mark3labs/mcp-go'] as const;

export function goMcpSdk(file: string, source: ByteSource): ProgramSdk | null {
  const read = goBuildInfoOf(source, file);
  if (read.info === null) return /is not a Go program/.test(read.reason) ? null : { kind: 'go', runtimeVersion: null, sdks: [], reason: read.reason };
  const { info } = read;
  // The SDK itself as the main module (its own examples) counts too.
  const sdks = [...(info.main ? [info.main] : []), ...info.deps]
    .filter((m) => (GO_MCP_SDKS as readonly string[]).includes(m.path))
    .map((m) => ({
      name: m.path,
      version: m.replacedBy?.version || m.version || null,
      file,
      from: 'Go build info',
      note: m.replacedBy ? `replaced by ${m.replacedBy.path}${m.replacedBy.version ? ` ${m.replacedBy.version}` : ' (a local folder)'}` : null,
    }));
  if (sdks.length === 0)
    return {
      kind: 'go',
      runtimeVersion: info.goVersion,
      sdks: [],
      reason: `${file} is a Go program (${info.goVersion}, ${info.path || 'no main path'}) with no MCP SDK among its ${info.deps.length} modules`,
    };
  const unversioned = sdks.filter((s) => s.version === null || s.version === '(devel)');
  return {
    kind: 'go',
    runtimeVersion: info.goVersion,
    sdks,
    reason: unversioned.length > 0 ? `${unversioned.map((s) => s.name).join(', ')}: built from a local folder, so the build info holds no version` : null,
  };
}
