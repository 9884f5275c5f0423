/**
 * Parsing `ps` as operators run it on macOS and Linux: `ps -axww -o user=,uid=,pid=,ppid=,pgid=,
 * [sid=,]stat=,etime=,lstart=,command=` (LC_ALL=C, so lstart is `Mon Nov 30 23:37:01 2026`).
 * Every column before the command is one word except lstart, which is five.
 */
import type { ProcessEntry } from './types.js';

/** `[[dd-]hh:]mm:ss` -> ms. */
export function parseEtime(text: string): number | null {
  const m = /^(?:(?:(\d+)-)?(\d+):)?(\d+):(\d+)$/.exec(text.trim());
  if (!m) return null;
  const [, d = '0', h = '0', min, s] = m;
  return (((Number(d) * 24 + Number(h)) * 60 + Number(min)) * 60 + Number(s)) * 1000;
}

export function psColumns(withSid: boolean): string {
  return ['user=', 'uid=', 'pid=', 'ppid=', 'pgid=', ...(withSid ? ['sid='] : []), 'stat=', 'etime=', 'lstart=', 'command='].join(',');
}

export function parsePsLine(line: string, withSid: boolean): ProcessEntry | null {
  const words = line.trim().split(/\s+/);
  const fixed = withSid ? 13 : 12;
  if (words.length <= fixed) return null;
  let i = 0;
  const next = () => words[i++]!;
  const user = next();
  const uid = Number(next());
  const pid = Number(next());
  const ppid = Number(next());
  const pgid = Number(next());
  const sid = withSid ? Number(next()) : null;
  const stat = next();
  const elapsedMs = parseEtime(next());
  const lstart = words.slice(i, i + 5).join(' ');
  i += 5;
  const started = Date.parse(lstart);
  if (!Number.isInteger(pid) || elapsedMs === null || Number.isNaN(started)) return null;
  // The command keeps its own spacing: cut the line after the 12th (13th) word.
  const command = line.trim().replace(new RegExp(`^(\\S+\\s+){${fixed}}`), '');
  return {
    pid,
    ppid,
    pgid,
    sid,
    user,
    uid: Number.isInteger(uid) ? uid : null,
    state: stat[0] ?? '?',
    startTime: Math.round(started / 1000),
    startedAt: new Date(started).toISOString(),
    elapsedMs,
    command,
    argv: null,
  };
}

/** Names in the environment part of `ps e` / `ps -E` output: what follows the command. */
export function envNamesAfter(line: string, command: string): string[] {
  const at = line.indexOf(command);
  const rest = at < 0 ? line : line.slice(at + command.length);
  return [...rest.matchAll(/(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)=/g)].map((m) => m[1]!);
}

export function envValueAfter(line: string, command: string, name: string): string | null {
  const at = line.indexOf(command);
  const rest = at < 0 ? line : line.slice(at + command.length);
  return new RegExp(`(?:^|\\s)${name}=(\\S*)`).exec(rest)?.[1] ?? null;
}
