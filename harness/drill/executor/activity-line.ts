/**
 * One line of the server's own activity record, read as an action: its key, its phase and the
 * optional fields, by the record's own field names and phase values (`subject.activity`). Pure.
 *
 * What is kept is bounded and never holds request content in clear: the key (an Idempotency-Key
 * or correlation id, which the remote's journal keeps too) whole up to KEY_CHARS, the other
 * fields cut to FIELD_CHARS, and the target as a digest (it is request content, as the remote's
 * state keeps it: harness/drill/executor/remote-link.ts). Secrets the drill knows are redacted by
 * the recorder, as from every event.
 */
import { createHash } from 'node:crypto';
import type { ActivityField, ActivitySpec } from '../../config/index.js';
import { ACTIVITY_PHASES } from '../../config/index.js';
import type { ActivityEntry } from '../../evidence/types.js';

/** A key longer than this cannot be matched against the remote's, so the line is not an action. */
export const KEY_CHARS = 1024;
export const FIELD_CHARS = 256;
const TIME_CHARS = 64;

export type ActivityLine = { kind: 'entry'; entry: Omit<ActivityEntry, 'line'> } | { kind: 'other' } | { kind: 'malformed'; reason: string };

/** The JSON text of a stderr line: the group `json`, else group 1, else the whole match; null when the line does not match. */
export function jsonOfStderrLine(line: string, pattern: RegExp): string | null {
  const m = pattern.exec(line);
  if (!m) return null;
  return m.groups?.json ?? m[1] ?? m[0];
}

export function readActivityLine(text: string, spec: Pick<ActivitySpec, 'fields' | 'phases'>): ActivityLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'other' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { kind: 'other' };
  const record = value as Record<string, unknown>;
  const field = (name: ActivityField) => at(record, spec.fields[name]);
  const phaseValue = field('phase');
  // A line without a phase is another log line of a server that logs its own way to the same place.
  if (phaseValue === undefined) return { kind: 'other' };
  const phase = ACTIVITY_PHASES.find((p) => spec.phases[p] === phaseValue);
  if (!phase) {
    const known = ACTIVITY_PHASES.map((p) => JSON.stringify(spec.phases[p])).join(', ');
    return { kind: 'malformed', reason: `${spec.fields.phase} ${short(JSON.stringify(phaseValue))} is not one of ${known}` };
  }
  const key = scalar(field('key'));
  if (key === undefined || key === '') return { kind: 'malformed', reason: `no ${spec.fields.key} (a string: the action's Idempotency-Key or correlation id)` };
  if (key.length > KEY_CHARS) return { kind: 'malformed', reason: `${spec.fields.key} longer than ${KEY_CHARS} characters` };
  const entry: Omit<ActivityEntry, 'line'> = { key, phase };
  const t = field('t');
  if (typeof t === 'number' && Number.isFinite(t)) entry.t = t;
  else if (typeof t === 'string' && t.length <= TIME_CHARS) entry.t = t;
  for (const name of ['session', 'operation', 'remoteId'] as const) {
    const v = scalar(field(name));
    if (v !== undefined && v !== '') entry[name] = v.length > FIELD_CHARS ? `${v.slice(0, FIELD_CHARS)}…` : v;
  }
  const target = scalar(field('target'));
  if (target !== undefined && target !== '') entry.target = digest(target);
  return { kind: 'entry', entry };
}

/** The value at a dotted field name. */
function at(record: Record<string, unknown>, name: string): unknown {
  let cur: unknown = record;
  for (const part of name.split('.')) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function scalar(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

function short(text: string): string {
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}
