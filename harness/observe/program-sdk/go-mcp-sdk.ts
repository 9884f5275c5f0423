/**
 * Which MCP SDK a Go program is built on, and at which version, from its embedded module list
 * (go-buildinfo.ts): go-sdk or mcp-go (a program may hold both, e.g. a client of one and a
 * server of the other), the version the binary holds (a replacement's version when the module
 * was replaced), or why it could not be told. Null when the file is not a Go program.
 */
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
