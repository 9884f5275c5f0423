/**
 * Which MCP SDK a Rust program is built on, and at which version, from its dependency list
 * (rust-deps.ts): rmcp, the official Rust SDK, in every version the binary holds (two
 * semver-incompatible versions can be linked side by side), or why it could not be told.
 */
import { readRustDeps, type RustDeps } from './rust-deps.js';

/** The Rust MCP SDKs by crate name. */
export const RUST_MCP_SDKS = ['rmcp'] as const;
export type RustMcpSdkName = (typeof RUST_MCP_SDKS)[number];

export interface RustSdkCrate {
  sdk: RustMcpSdkName;
  version: string;
}

export type RustMcpSdk = { sdks: RustSdkCrate[]; from: RustDeps['from']; rustc: string | null; reason: null } | { sdks: []; reason: string };

export function rustMcpSdk(file: string): RustMcpSdk {
  const read = readRustDeps(file);
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
