/**
 * Which MCP SDK a Go program is built on, and at which version, from its embedded module list
 * (go-buildinfo.ts): go-sdk or mcp-go (a program may hold both, e.g. a client of one and a
 * server of the other), the version the binary holds (a replacement's version when the module
 * was replaced), or why it could not be told.
 */
import { type GoModule, readGoBuildInfo } from './go-buildinfo.js';

/** The Go MCP SDKs by module path. */
export const GO_MCP_SDKS = ['github.com/modelcontextprotocol/go-sdk', 'github.com/mark3labs/mcp-go'] as const;
export type GoMcpSdkPath = (typeof GO_MCP_SDKS)[number];

export interface GoSdkModule {
  sdk: GoMcpSdkPath;
  version: string;
  replacedBy: GoModule['replacedBy'];
}

export type GoMcpSdk = { sdks: GoSdkModule[]; goVersion: string; mainPath: string; reason: null } | { sdks: []; reason: string };

export function goMcpSdk(file: string): GoMcpSdk {
  const read = readGoBuildInfo(file);
  if (read.info === null) return { sdks: [], reason: read.reason };
  const { info } = read;
  // The SDK itself as the main module (its own examples) counts too.
  const sdks = [...(info.main ? [info.main] : []), ...info.deps]
    .filter((m) => (GO_MCP_SDKS as readonly string[]).includes(m.path))
    .map((m) => ({ sdk: m.path as GoMcpSdkPath, version: m.replacedBy?.version || m.version, replacedBy: m.replacedBy }));
  if (sdks.length === 0)
    return {
      sdks: [],
      reason: `${file} is a Go program (${info.goVersion}, ${info.path || 'no main path'}) with no MCP SDK among its ${info.deps.length} modules`,
    };
  return { sdks, goVersion: info.goVersion, mainPath: info.path, reason: null };
}
