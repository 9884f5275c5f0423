/**
 * Cleanup-expectation statements in a baseline, as checks are (harness/baseline/): a `not met`
 * statement the file lists for its server is known and does not fail the run; a listed one that
 * is now `met` is stale and fails the run until it is removed. A `not shown` statement is
 * neither: a run that could not show it says nothing of whether it was fixed.
 */
import { countNotMet } from './judge.js';
import type { BaselineStatementInfo, ExpectationResults } from '../results/expectation-results.js';

/** The identity of a statement entry: one per server and statement. */
export function statementKey(entry: Pick<BaselineStatementInfo, 'server' | 'statement'>): string {
  return `${entry.server}\u0000${entry.statement}`;
}

/** Marks the known statements in place and recounts; returns the baseline section's `statements`. */
export function applyStatementBaseline(
  expectation: ExpectationResults,
  listed: readonly BaselineStatementInfo[],
): { entries: number; known: number; stale: BaselineStatementInfo[] } {
  const byKey = new Map(listed.map((e) => [statementKey(e), e]));
  let known = 0;
  const ran = new Map<string, string>();
  for (const server of expectation.servers) {
    for (const st of server.statements) {
      const key = statementKey({ server: server.server, statement: st.statement });
      ran.set(key, st.status);
      delete st.known;
      const entry = byKey.get(key);
      if (entry && st.status === 'not met') {
        st.known = { reason: entry.reason };
        known++;
      }
    }
  }
  expectation.notMet = countNotMet(expectation.servers);
  expectation.known = known;
  return { entries: listed.length, known, stale: listed.filter((e) => ran.get(statementKey(e)) === 'met') };
}

/** What a baseline lists of an expectation: every statement not met, reasons kept from `reasons`. */
export function collectStatements(expectation: ExpectationResults | undefined, reasons: ReadonlyMap<string, string> = new Map()): BaselineStatementInfo[] {
  const out: BaselineStatementInfo[] = [];
  for (const server of expectation?.servers ?? [])
    for (const st of server.statements) {
      if (st.status !== 'not met') continue;
      const key = statementKey({ server: server.server, statement: st.statement });
      if (!out.some((e) => statementKey(e) === key)) out.push({ server: server.server, statement: st.statement, reason: reasons.get(key) ?? '' });
    }
  return sortStatements(out);
}

/**
 * The statement entries a file should hold after this run: what is not met now (reasons kept),
 * plus the old entries of statements this run did not show either way.
 */
export function updatedStatements(
  old: readonly BaselineStatementInfo[],
  expectation: ExpectationResults | undefined,
): { statements: BaselineStatementInfo[]; added: number; removed: number } {
  const reasons = new Map(old.map((e) => [statementKey(e), e.reason]));
  const fresh = collectStatements(expectation, reasons);
  // A statement no drill showed keeps its entry: this run says nothing of it.
  const judged = new Set(
    (expectation?.servers ?? []).flatMap((s) =>
      s.statements.filter((st) => st.status !== 'not shown').map((st) => statementKey({ server: s.server, statement: st.statement })),
    ),
  );
  const kept = old.filter((e) => !judged.has(statementKey(e)));
  const before = new Set(old.map(statementKey));
  const after = new Set(fresh.map(statementKey));
  return {
    statements: sortStatements([...kept, ...fresh]),
    added: fresh.filter((e) => !before.has(statementKey(e))).length,
    removed: old.filter((e) => judged.has(statementKey(e)) && !after.has(statementKey(e))).length,
  };
}

export function sortStatements(entries: readonly BaselineStatementInfo[]): BaselineStatementInfo[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...entries].sort((a, b) => cmp(a.server, b.server) || cmp(a.statement, b.statement));
}
