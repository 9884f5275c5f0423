/** Which rmcp versions a Rust program holds (semver-incompatible ones can link side by side), from rust-deps.ts. */
import type { ByteSource } from './byte-source.js';
import { type RustDeps, type RustDepsResult, rustDepsOf } from './rust-deps.js';
import type { ProgramSdk } from './types.js';

/** The Rust MCP SDKs by crate name. */
const RUST_MCP_SDKS = ['rmcp'] as const;
type RustMcpSdkName = (typeof RUST_MCP_SDKS)[number];

interface RustSdkCrate {
  sdk: RustMcpSdkName;
  version: string;
}

type RustMcpSdk = { sdks: RustSdkCrate[]; from: RustDeps['from']; rustc: string | null; reason: null } | { sdks: []; reason: string };

function fromDeps(file: string, read: RustDepsResult): RustMcpSdk {
  if (read.deps === null) return { sdks: [], reason: read.reason };
  const { deps } = read;
  const sdks = deps.packages
    .filter((p) => p.kind === 'runtime' && (RUST_MCP_SDKS as readonly string[]).includes(p.name))
    .map((p) => ({ sdk: p.name as RustMcpSdkName, version: p.version }));
  if (sdks.length === 0) {
    const how = deps.from === 'cargo-auditable' ? 'its cargo auditable list' : 'the crate paths it holds';
    return {
      sdks: [],
      reason: `${file} is a Rust program${deps.rustc ? ` (${deps.rustc})` : ''} with no MCP SDK among the ${deps.packages.length} crates of ${how}`,
    };
  }
  return { sdks, from: deps.from, rustc: deps.rustc, reason: null };
}

/** The same in the one shape every reader gives (types.ts), from a source already open; null when the file is not a Rust program. */
export function rustProgramSdk(file: string, source: ByteSource): ProgramSdk | null {
  const read = rustDepsOf(source, file);
  if (read.deps === null && / is not a Rust program /.test(read.reason)) return null;
  const sdk = fromDeps(file, read);
  const runtimeVersion = read.deps?.rustc ?? null;
  if (sdk.reason !== null) return { kind: 'rust', runtimeVersion, sdks: [], reason: sdk.reason };
  const from = sdk.from === 'cargo-auditable' ? 'cargo auditable' : 'crate path';
  return { kind: 'rust', runtimeVersion, sdks: sdk.sdks.map((s) => ({ name: s.sdk, version: s.version, file, from, note: null })), reason: null };
}
