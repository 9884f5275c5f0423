/**
 * What one look at the machine cannot tell, kept for the next look, in one small file:
 * - unread: how long a client has left the server's output unread. One look shows only that
 *   bytes are queued on the client's end (`ss` Recv-Q); how long they have been there needs an
 *   earlier look. Kept per client identity and socket, so a later run (a cron job, the operator
 *   again) can tell "unread at every look since T". Between two looks the queue may have drained
 *   and filled again: the record says "at every look", not "continuously".
 * - io: whether a server its client started again has had any I/O since (superseded.ts). One
 *   read of its I/O counters says nothing; counters that moved only as an idle event loop moves
 *   them (io-quiet.ts) at a later look say "no I/O between the two looks". Kept per (server,
 *   newer server, client) identities.
 */
import { dirname, join } from 'node:path';
import { readOwnFile, replaceOwnFile } from '../registry/index.js';
import { checkedFolder, registryDir, registryPath } from '../registry/index.js';

export interface PendingLook {
  /** Wall-clock ms of the first look that saw bytes unread, and every look since did too. */
  since: number;
  bytes: number;
}

export interface IoLook {
  /** Wall-clock ms of the first look of a row of looks with no I/O between any two of them. */
  since: number;
  /** The counters as read now. */
  counters: string;
  /** Since the last look: no I/O (`quiet` said so), I/O, or no last look (a first look). */
  previous: 'quiet' | 'io' | 'none';
}

interface LookState {
  unread: Record<string, PendingLook>;
  io: Record<string, Omit<IoLook, 'previous'>>;
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

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const time = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * Only a regular file of this user is believed (own-files.ts); anything else is a first look.
 * A file of one object of unread looks (before io looks were kept) is read as its unread part.
 */
function load(file: string): LookState {
  try {
    const data = JSON.parse(readOwnFile(file) ?? '{}') as unknown;
    if (!isObject(data)) return { unread: {}, io: {} };
    if (!isObject(data.unread) && !isObject(data.io)) return { unread: data as LookState['unread'], io: {} };
    return { unread: (isObject(data.unread) ? data.unread : {}) as LookState['unread'], io: (isObject(data.io) ? data.io : {}) as LookState['io'] };
  } catch {
    return { unread: {}, io: {} };
  }
}

export interface Looks {
  /** Each key (client identity + socket) to its unread bytes. */
  unread?: Map<string, number>;
  /** Each key (server, newer server and client identities) to the server's I/O counters, as one string. */
  io?: Map<string, string>;
  /** Whether the io counters moved only without I/O between two looks (default: they are the same). */
  quiet?: (before: string, now: string) => boolean;
}

/**
 * Records this look. A kind not given keeps what was kept; of a kind given, keys not seen now
 * are forgotten (the client read; the server or its newer sibling is gone). Unread keys keep
 * their first-seen time; io keys keep it while every look finds the counters quiet since the last.
 */
export function recordLooks(now: Looks, at = Date.now(), file = pendingFile()): { unread: Map<string, PendingLook>; io: Map<string, IoLook> } {
  // A folder that is not this user's own refuses the command (RegistryError, exit 3), never a silent first look.
  checkPendingFolder(file);
  const before = load(file);
  const after: LookState = { unread: now.unread ? {} : before.unread, io: now.io ? {} : before.io };
  for (const [key, bytes] of now.unread ?? []) after.unread[key] = { since: time(before.unread[key]?.since) ?? at, bytes };
  const io = new Map<string, IoLook>();
  const quiet = now.quiet ?? ((a: string, b: string) => a === b);
  for (const [key, counters] of now.io ?? []) {
    const was = before.io[key];
    const since = was && typeof was.counters === 'string' ? time(was.since) : null;
    const previous = since === null ? 'none' : quiet(was!.counters, counters) ? 'quiet' : 'io';
    const kept = previous === 'quiet' ? since! : at;
    after.io[key] = { since: kept, counters };
    io.set(key, { since: kept, counters, previous });
  }
  try {
    replaceOwnFile(file, JSON.stringify(after));
  } catch {
    // A read-only tmp: every look is a first look, and nothing is called stuck or superseded by these rules.
  }
  return { unread: new Map(Object.entries(after.unread)), io };
}

/** The unread looks alone (the io looks kept as they were). */
export function recordPending(now: Map<string, number>, at = Date.now(), file = pendingFile()): Map<string, PendingLook> {
  return recordLooks({ unread: now }, at, file).unread;
}
