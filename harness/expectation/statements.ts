/**
 * Each expectation statement, mapped to the checks that decide it and the kill points and modes
 * that can show it (docs/design.md); judged from check results alone, so a merged run agrees.
 */
import type { CheckId } from '../checks/all-checks.js';
import { CANCEL_POINTS, type KillMode, type KillPoint } from '../config/index.js';
import type { DrillResult } from '../results/judge.js';
import type { DeclaredStatement, StatementId } from '../config/index.js';
import type { WouldShow } from '../results/expectation-results.js';

/** What one drill shows of a statement; null when none of its checks ran in that drill. */
export type DrillSay = 'met' | 'not met' | 'could not tell' | null;

export interface StatementDef {
  id: StatementId;
  text(statement: DeclaredStatement): string;
  checks: CheckId[];
  shownBy: Omit<WouldShow, 'text'> & { also?: string };
  decide(drill: DrillResult, statement: DeclaredStatement): DrillSay;
}

/** The modes a hint names (stop shows the same, under a client that lives on; a default scenario drills these). */
const LOSS: KillMode[] = ['crash', 'close'];
const REMOTE_POINTS: KillPoint[] = ['sent', 'confirmed'];

type ExitData = { elapsedMs?: number; endedBy?: string; endedByWho?: 'client' | 'harness'; exited?: false; deadlineMs?: number };

function checkOf(drill: DrillResult, id: CheckId) {
  return drill.checks.find((c) => c.id === id);
}

/** met when every one of these checks that ran passed; not met when one failed. */
function byVerdicts(...ids: CheckId[]) {
  return (drill: DrillResult): DrillSay => {
    const ran = ids.map((id) => checkOf(drill, id)).filter((c) => c !== undefined);
    if (ran.length === 0) return null;
    if (ran.some((c) => c.verdict === 'fail')) return 'not met';
    if (ran.some((c) => c.verdict === 'unknown')) return 'could not tell';
    return 'met';
  };
}

/** The server's exit after the loss of its client, as exit-on-eof measured it. */
function exitOf(drill: DrillResult): ExitData | null {
  const check = checkOf(drill, 'exit-on-eof');
  return check ? (check.data as ExitData) : null;
}

export const STATEMENTS: readonly StatementDef[] = [
  {
    id: 'stops-accepting-calls',
    text: () => 'stops accepting calls after its input closes (it exits on its own)',
    checks: ['exit-on-eof'],
    shownBy: { points: 'any', modes: LOSS, remote: false, also: 'expect.exit-on-eof on' },
    // A server that exited takes no call; one that had to be signalled, or still ran, kept its loop.
    // The client's shutdown signals on its own schedule (close-wait): a server it ended might
    // still have exited on its own later (slow-exit), so that drill cannot tell.
    decide(drill) {
      const data = exitOf(drill);
      if (!data) return null;
      if (data.endedBy && data.endedByWho === 'client') return 'could not tell';
      if (data.endedBy || data.exited === false) return 'not met';
      return data.elapsedMs !== undefined ? 'met' : 'could not tell';
    },
  },
  {
    id: 'exits-within',
    text: (s) => `exits within ${s.ms} ms after its input closes`,
    checks: ['exit-on-eof'],
    shownBy: { points: 'any', modes: LOSS, remote: false, also: 'expect.exit-on-eof on' },
    // Judged on the time exit-on-eof measured, so the statement may be stricter than the check's deadline.
    decide(drill, s) {
      const data = exitOf(drill);
      if (!data) return null;
      const ms = s.ms ?? 0;
      // Ended by a signal: not met once its time was up; before that, nobody can tell.
      if (data.endedBy) return data.elapsedMs !== undefined && data.elapsedMs < ms ? 'could not tell' : 'not met';
      if (data.elapsedMs !== undefined) return data.elapsedMs <= ms ? 'met' : 'not met';
      // Still running when the drill ended: not met only if the drill watched at least that long.
      if (data.exited === false) return (data.deadlineMs ?? 0) >= ms ? 'not met' : 'could not tell';
      return 'could not tell';
    },
  },
  {
    id: 'leaves-no-helper',
    text: () => 'leaves no helper process behind (a child, a daemon, a container it started)',
    checks: ['no-survivors'],
    shownBy: { points: ['child-spawned'], modes: LOSS, remote: false, also: 'expect.no-survivors on' },
    // A helper is what the server started: the server itself outliving its client is the exit
    // statements' concern, so a drill whose only survivor is the server shows no helper left.
    // An abandoned server was never told to go: its helpers living on beside it say nothing of this.
    decide(drill) {
      const check = checkOf(drill, 'no-survivors');
      if (!check || drill.mode === 'abandon') return null;
      if (check.verdict !== 'fail') return check.verdict === 'pass' ? 'met' : 'could not tell';
      const server = drill.incident?.server?.pid;
      const onlyServer = drill.survivors.length > 0 && drill.survivors.every((p) => p.pid === server);
      return onlyServer ? 'met' : 'not met';
    },
  },
  {
    id: 'no-write-after-loss',
    text: () => 'starts no new external write after losing its client',
    checks: ['quiet-after-loss'],
    shownBy: { points: REMOTE_POINTS, modes: LOSS, remote: true },
    decide: byVerdicts('quiet-after-loss'),
  },
  {
    id: 'writes-carry-key-and-session',
    text: () => 'every external write carries an idempotency key and its session',
    checks: ['idempotent-effects'],
    shownBy: { points: REMOTE_POINTS, modes: ['crash'], remote: true },
    // Read from what idempotent-effects recorded: keyless writes, and each effect's session.
    decide(drill) {
      const check = checkOf(drill, 'idempotent-effects');
      if (!check) return null;
      const data = check.data as { writes?: number; keyless?: unknown[]; effects?: Array<{ session: string | null }> };
      if (data.writes === undefined) return 'could not tell';
      if ((data.keyless?.length ?? 0) > 0 || (data.effects ?? []).some((e) => !e.session)) return 'not met';
      return data.writes > 0 ? 'met' : 'could not tell';
    },
  },
  {
    id: 'remote-jobs-settle',
    text: () => 'every remote job it started settles (completed or cancelled)',
    checks: ['jobs-settled'],
    shownBy: { points: REMOTE_POINTS, modes: LOSS, remote: true, also: 'a tool that starts a job' },
    decide: byVerdicts('jobs-settled'),
  },
  {
    id: 'authority-gone-at-revocation',
    text: () => 'its authority is gone once the session is revoked',
    checks: ['denied-after-revocation'],
    shownBy: { points: 'any', modes: ['crash', 'close', 'hang'], remote: true },
    decide: byVerdicts('denied-after-revocation'),
  },
  {
    id: 'records-every-action',
    text: () => 'keeps its own record of every external action: started before it is sent, and its result or unresolved before it exits',
    checks: ['activity-recorded'],
    shownBy: { points: REMOTE_POINTS, modes: LOSS, remote: true, also: 'a server that writes its activity record' },
    decide: byVerdicts('activity-recorded'),
  },
  {
    id: 'cancel-honoured',
    text: () => 'honours a cancel: the cancelled call stops and is not answered',
    checks: ['silent-after-cancel', 'stops-after-cancel'],
    shownBy: { points: [...CANCEL_POINTS], modes: ['cancel'], remote: false },
    decide: byVerdicts('silent-after-cancel', 'stops-after-cancel'),
  },
];

export function statementDef(id: StatementId): StatementDef {
  const def = STATEMENTS.find((s) => s.id === id);
  if (!def) throw new Error(`no statement ${id}`);
  return def;
}

/** "point child-spawned in mode crash or close, with expect.no-survivors on" */
export function wouldShow(def: StatementDef): WouldShow {
  const { points, modes, remote, also } = def.shownBy;
  const or = (items: readonly string[]) => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`);
  const where = points === 'any' ? 'any point (idle is the quickest)' : `point ${or(points)}`;
  const needs = [...(remote ? ['a remote: section the server writes to'] : []), ...(also ? [also] : [])];
  const text = `a drill at ${where} in mode ${or(modes)}${needs.length > 0 ? `, with ${needs.join(' and ')}` : ''}`;
  return { points: points === 'any' ? 'any' : [...points], modes: [...modes], remote, text };
}
