/**
 * How long a client has left the server's output unread. One look at the machine shows only
 * that bytes are queued on the client's end (`ss` Recv-Q); how long they have been there needs
 * an earlier look. Each `orphans` run keeps what it saw in a small file (per client identity
 * and socket), so a later run (a cron job, the operator again) can tell "unread at every look
 * since T". Between two looks the queue may have drained and filled again: the record says
 * "at every look", not "continuously".
 */
import { lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PendingLook {
  /** Wall-clock ms of the first look that saw bytes unread, and every look since did too. */
  since: number;
  bytes: number;
}

/**
 * One folder per user (mode 0700): tmp is shared, so a folder of one name for everyone would be
 * writable only by whoever made it first, and readable (and forgeable) by the others.
 */
export function pendingFile(): string {
  return process.env.CRASH_DRILL_ORPHANS_STATE ?? join(tmpdir(), `crash-drill-${process.getuid?.() ?? 'user'}`, 'orphans-pending.json');
}

/** The state's folder is a real folder of this user: not another user's, not a symlink. */
function ownFolder(dir: string): boolean {
  try {
    const st = lstatSync(dir);
    const uid = process.getuid?.();
    return st.isDirectory() && (uid === undefined || st.uid === uid);
  } catch {
    return false;
  }
}

function load(file: string): Record<string, PendingLook> {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as unknown;
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
  const dir = join(file, '..');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    // judged below
  }
  // A folder this user does not own is neither trusted nor written: every look is a first look.
  const own = ownFolder(dir);
  const before = own ? load(file) : {};
  const after: Record<string, PendingLook> = {};
  for (const [key, bytes] of now) {
    const since = before[key]?.since;
    after[key] = { since: typeof since === 'number' && Number.isFinite(since) ? since : at, bytes };
  }
  if (!own) return new Map(Object.entries(after));
  try {
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(after));
    renameSync(tmp, file);
  } catch {
    // A read-only tmp: every look is a first look, and nothing is called stuck by this rule.
  }
  return new Map(Object.entries(after));
}
