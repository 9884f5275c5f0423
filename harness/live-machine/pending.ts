/**
 * What one look cannot tell, kept for the next: how long output has stayed unread ("at every look
 * since T", not "continuously"), and whether a restarted server has had I/O since (superseded.ts).
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
  counters: string;
  /** Since the last look: no I/O (`quiet` said so), I/O, or no last look (a first look). */
  previous: 'quiet' | 'io' | 'none';
}

interface LookState {
  unread: Record<string, PendingLook>;
  io: Record<string, Omit<IoLook, 'previous'>>;
}

const STATE_ENV = 'CRASH_DRILL_ORPHANS_STATE';

/** In the run registry's private folder (harness/registry/registry.ts), so another user cannot forge it. */
export function pendingFile(): string {
  return process.env[STATE_ENV] || join(registryDir(), 'orphans-pending.json');
}

/** The state's folder, checked: RegistryError when it is not the user's own. */
export function checkPendingFolder(file = pendingFile()): void {
  const dir = dirname(file);
  checkedFolder(dir, process.env, dir === registryPath() ? undefined : STATE_ENV);
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const time = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Only a regular file of this user is believed (own-files.ts); a legacy unread-only object is read as its unread part. */
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
  unread?: Map<string, number>;
  /** Each key (server, newer server and client identities) to the server's I/O counters, as one string. */
  io?: Map<string, string>;
  /** Whether the io counters moved only without I/O between two looks (default: they are the same). */
  quiet?: (before: string, now: string) => boolean;
}

/** Records this look: of a kind given, keys not seen now are forgotten; a kind not given is kept. */
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
