/**
 * A run's cleanup expectations, judged: for each server, each statement it declared is `met`
 * when some drill showed it and none showed otherwise, `not met` when a drill showed otherwise,
 * and `not shown` when no drill could tell (then it names the point or mode that would). Pure:
 * from the declared statements and the drill results, so `merge` and `report` can say the same.
 */
import type { Scenario, SubjectSpec } from '../config/types.js';
import type { DrillResult } from '../results/judge.js';
import { statementDef, wouldShow, type DrillSay } from './statements.js';
import {
  STATEMENT_IDS,
  type DeclaredExpectation,
  type DeclaredStatement,
  type ExpectationResults,
  type ServerExpectation,
  type StatementResult,
} from './types.js';

/** A server is its subject as a drill names it: name, command and args. */
function serverKey(s: { name?: string; server?: string; command: string; args: readonly string[] }): string {
  return JSON.stringify([s.server ?? s.name, s.command, s.args]);
}

/**
 * What each server declared, from the scenarios as drilled (a `--subject` replaces a scenario's
 * own, and gets the scenario's expectation): a subject's own `expectation` first, else its
 * scenario's. One statement per id; where scenarios differ on exits-within, the strictest.
 */
export function declaredExpectations(drilled: ReadonlyArray<{ scenario: Scenario; subject?: SubjectSpec }>): DeclaredExpectation[] {
  const byServer = new Map<string, DeclaredExpectation>();
  for (const { scenario, subject = scenario.subject } of drilled) {
    const statements = subject.expectation ?? scenario.expectation ?? [];
    if (statements.length === 0) continue;
    const key = serverKey(subject);
    const entry = byServer.get(key) ?? { server: subject.name, command: subject.command, args: [...subject.args], statements: [] };
    byServer.set(key, entry);
    for (const statement of statements) {
      const had = entry.statements.find((s) => s.id === statement.id);
      if (!had) entry.statements.push({ ...statement });
      else if (statement.ms !== undefined && (had.ms === undefined || statement.ms < had.ms)) had.ms = statement.ms;
    }
  }
  for (const entry of byServer.values()) entry.statements.sort((a, b) => STATEMENT_IDS.indexOf(a.id) - STATEMENT_IDS.indexOf(b.id));
  return [...byServer.values()];
}

/** Each server's statements judged on its drills; undefined when no server declared any. */
export function judgeExpectations(declared: readonly DeclaredExpectation[], drills: readonly DrillResult[]): ExpectationResults | undefined {
  if (declared.length === 0) return undefined;
  const servers: ServerExpectation[] = declared.map((d) => {
    const key = serverKey(d);
    // A drill that erred did not happen as planned: its checks show nothing of the server.
    const own = drills.filter((drill) => drill.verdict !== 'error' && serverKey(drill.subject) === key);
    return { server: d.server, command: d.command, args: [...d.args], statements: d.statements.map((s) => judgeStatement(s, own)) };
  });
  return { servers, notMet: countNotMet(servers) };
}

/** Statements not met and not known to the baseline. */
export function countNotMet(servers: readonly ServerExpectation[]): number {
  return servers.reduce((n, s) => n + s.statements.filter((st) => st.status === 'not met' && !st.known).length, 0);
}

function judgeStatement(statement: DeclaredStatement, drills: readonly DrillResult[]): StatementResult {
  const def = statementDef(statement.id);
  const keys: Record<Exclude<DrillSay, null>, string[]> = { met: [], 'not met': [], 'could not tell': [] };
  for (const drill of drills) {
    const say = def.decide(drill, statement);
    if (say !== null && !keys[say].includes(drill.key)) keys[say].push(drill.key);
  }
  const status = keys['not met'].length > 0 ? 'not met' : keys.met.length > 0 ? 'met' : 'not shown';
  return {
    statement: statement.id,
    ...(statement.ms !== undefined ? { ms: statement.ms } : {}),
    text: def.text(statement),
    status,
    checks: [...def.checks],
    drills: status === 'not met' ? keys['not met'] : status === 'met' ? keys.met : [],
    ...(keys['could not tell'].length > 0 ? { couldNotTell: keys['could not tell'] } : {}),
    ...(status === 'not shown' ? { wouldShow: wouldShow(def) } : {}),
  };
}
