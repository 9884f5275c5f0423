/**
 * THE SEAM for the survey's network rule: each survey worker runs where only loopback exists
 * (`unshare -n` as root, else `unshare -rn`, loopback up), so a write-capable tool never reaches a
 * real API; it refuses, with why, where neither works. `crash-drill run --network loopback` can
 * replace `loopbackOnly` with nothing else changing.
 */
import { spawnSync } from 'node:child_process';

export interface Wrapped {
  command: string;
  args: string[];
}

let probed: string[] | null | undefined;

/** The unshare flags that work here, or null. Probed once per process. */
function unshareFlags(): string[] | null {
  if (probed !== undefined) return probed;
  probed = null;
  for (const flags of [['-n'], ['-rn']]) {
    if (spawnSync('unshare', [...flags, 'true'], { timeout: 10_000 }).status === 0) {
      probed = flags;
      break;
    }
  }
  return probed;
}

/** Why no loopback-only namespace can be made here, or null when one can. */
export function loopbackRefusal(): string | null {
  return unshareFlags() === null ? 'neither `unshare -n` (root) nor `unshare -rn` (a user namespace) works here, and survey servers get loopback only' : null;
}

/** `command args` started where only loopback exists. Call loopbackRefusal() first. */
export function loopbackOnly(command: string, args: readonly string[]): Wrapped {
  const flags = unshareFlags();
  if (flags === null) throw new Error(loopbackRefusal()!);
  return { command: 'unshare', args: [...flags, 'sh', '-c', 'ip link set lo up && exec "$@"', 'sh', command, ...args] };
}
