/**
 * A Node program's MCP SDK: the script's nearest package.json that declares an MCP SDK in
 * `dependencies`, and the version installed where Node would resolve it from there
 * (node_modules up the folders); else the first SDK installed up the folders from the script.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SdkPackage } from './types.js';

export const NODE_SDKS = ['@modelcontextprotocol/sdk', '@modelcontextprotocol/server'];

export function readJson(file: string): Record<string, unknown> | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
}

export function* upFrom(dir: string): Generator<string> {
  let d = dir;
  for (;;) {
    yield d;
    const up = dirname(d);
    if (up === d) return;
    d = up;
  }
}

/** The installed version of a package as Node resolves it from a folder. */
function installed(from: string, name: string): SdkPackage | null {
  for (const d of upFrom(from)) {
    const file = join(d, 'node_modules', name, 'package.json');
    const version = readJson(file)?.version;
    if (typeof version === 'string') return { name, version, file };
  }
  return null;
}

export function nodeSdks(script: string): SdkPackage[] {
  for (const d of upFrom(dirname(script))) {
    const pkg = readJson(join(d, 'package.json'));
    const deps = pkg?.dependencies as Record<string, string> | undefined;
    const declared = NODE_SDKS.filter((name) => deps?.[name] !== undefined);
    if (declared.length > 0) return declared.flatMap((name) => installed(d, name) ?? []);
  }
  const found = NODE_SDKS.flatMap((name) => installed(dirname(script), name) ?? []);
  return found.slice(0, 1);
}
