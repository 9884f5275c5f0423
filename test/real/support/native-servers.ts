/**
 * The published MCP servers with native binaries that test/real drills (native-servers.json, the
 * one list: .ci/real-servers.sh installs it), where each binary is, and whether a file can run:
 * without the binary, or without `unshare -n` (a real server is drilled with loopback only), its
 * tests skip and say why; CRASH_DRILL_REQUIRE_REAL_SERVERS=1 (.ci/run, after the install) makes that
 * a failure. CRASH_DRILL_REAL_SERVERS names another install folder (default <repo>/.real-servers).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../../harness/util/paths.js';
import { missingPrerequisite } from '../../support/prerequisite.js';

const ROOT = packageRoot();
export type RealServer = 'kubernetes-mcp-server' | 'azure-mcp' | 'nushell' | 'falconer-mcp';
interface Entry {
  package: string;
  version: string;
  bin: string;
  language: string;
}
export const REAL_SERVERS = (JSON.parse(readFileSync(join(ROOT, 'test/real/support/native-servers.json'), 'utf8')) as { packages: Record<RealServer, Entry> })
  .packages;
export const REAL_ROOT = process.env.CRASH_DRILL_REAL_SERVERS || join(ROOT, '.real-servers');

/** The server's binary; an override from the environment where one is named (CRASH_DRILL_K8S_MCP, CRASH_DRILL_FALCONER_MCP, as before). */
export function realBinary(server: RealServer): string {
  if (server === 'kubernetes-mcp-server' && process.env.CRASH_DRILL_K8S_MCP) return process.env.CRASH_DRILL_K8S_MCP;
  if (server === 'falconer-mcp' && process.env.CRASH_DRILL_FALCONER_MCP) return process.env.CRASH_DRILL_FALCONER_MCP;
  const e = REAL_SERVERS[server];
  return join(REAL_ROOT, 'node_modules', e.package, e.bin);
}

export function realSpec(server: RealServer): string {
  return `${REAL_SERVERS[server].package}@${REAL_SERVERS[server].version}`;
}

/** `unshare -n` as root, `unshare -rn` (a user namespace too) otherwise; null when neither works here. */
export function unshareArgs(): string[] | null {
  for (const args of [['-n'], ['-rn']]) {
    const probe = spawnSync('unshare', [...args, 'true'], { timeout: 10_000 });
    if (probe.status === 0) return args;
  }
  return null;
}

const required = process.env.CRASH_DRILL_REQUIRE_REAL_SERVERS === '1' || process.env.CRASH_DRILL_REQUIRE_REAL_K8S === '1';

/** Call at the top of a test file: null when every server named can run, else why not (printed, or a failing test when required). */
export function realServersSkip(file: string, servers: RealServer[]): string | null {
  const missing = servers.find((s) => !existsSync(realBinary(s)));
  const why = missing
    ? `no ${missing} at ${realBinary(missing)} (run .ci/real-servers.sh, which installs ${servers.map(realSpec).join(', ')} with npm)`
    : unshareArgs() === null
      ? 'unshare -n (or -rn) does not work here, and a real server is drilled with loopback only'
      : null;
  if (why === null) return null;
  return missingPrerequisite(file, why, {
    test: 'has the real servers and unshare',
    requiredBy: 'CRASH_DRILL_REQUIRE_REAL_SERVERS=1',
    required,
  });
}
