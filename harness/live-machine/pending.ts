/**
 * How long a client has left the server's output unread. One look at the machine shows only
 * that bytes are queued on the client's end (`ss` Recv-Q); how long they have been there needs
 * an earlier look. Each `orphans` run keeps what it saw in a small file (per client identity
 * and socket), so a later run (a cron job, the operator again) can tell "unread at every look
 * since T". Between two looks the queue may have drained and filled again: the record says
 * "at every look", not "continuously".
 */
import { dirname, join } from 'node:path';
import { readOwnFile, replaceOwnFile } from '../registry/own-files.js';
import { checkedFolder, registryDir, registryPath } from '../registry/registry.js';

export interface PendingLook {
  /** Wall-clock ms of the first look that saw bytes unread, and every look since did too. */
  since: number;
  bytes: number;
}

const STATE_ENV = 'CRASH_DRILL_ORPHANS_STATE';

/**
 * In the run registry (harness/registry/registry.ts): a private folder of the user, checked
 * before every use, so another user can neither read nor forge when a client was first seen
 * stuck. CRASH_DRILL_ORPHANS_STATE names the file outright (tests); its folder gets the same checks.
 */
export function pendingFile(): string {
  return process.env[STATE_ENV] || join(registryDir(), 'orphans-pending.json');
}

/**
 * The state's folder, checked (RegistryError when it is not the user's own): `orphans` refuses
 * with it before it looks. A folder other than the registry was named by CRASH_DRILL_ORPHANS_STATE,
 * and the refusal says so.
 */
export function checkPendingFolder(file = pendingFile()): void {
  const dir = dirname(file);
  checkedFolder(dir, process.env, dir === registryPath() ? undefined : STATE_ENV);
}

/** Only a regular file of this user is believed (own-files.ts); anything else is a first look. */
function load(file: string): Record<string, PendingLook> {
  try {
    const data = JSON.parse(readOwnFile(file) ?? '{}') as unknown;
    return data && typeof data === 'object' ? (data as Record<string, PendingLook>) : {};
  } catch {
    return {};
  }
}

/**
 * Records this look: `now` maps each key (client identity + socket) to its unread bytes.
 * Returns each key's first-seen time. Keys not pending now are forgotten: the client read.
 */
export function recordPending(now: Map<string, number>, at = Date.now(), file = pendingFile()): Map<string, PendingLook> {
  // A folder that is not this user's own refuses the command (RegistryError, exit 3), never a silent first look.
  checkPendingFolder(file);
  const before = load(file);
  const after: Record<string, PendingLook> = {};
  for (const [key, bytes] of now) {
    const since = before[key]?.since;
    after[key] = { since: typeof since === 'number' && Number.isFinite(since) ? since : at, bytes };
  }
  try {
    replaceOwnFile(file, JSON.stringify(after));
  } catch {
    // A read-only tmp: every look is a first look, and nothing is called stuck by this rule.
  }
  return new Map(Object.entries(after));
}
