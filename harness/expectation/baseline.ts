/**
 * Expectation statements in a baseline, as checks (harness/baseline/): a listed `not met` is known,
 * a listed `met` is stale and fails the run, `not shown` is neither. An entry naming a client
 * profile covers that profile alone; a per-profile statement (judge.ts) is known only when every
 * profile it is not met under is covered.
 */
import { countNotMet } from './judge.js';
import type { BaselineStatementInfo, ExpectationResults } from '../results/expectation-results.js';

/** The identity of a statement entry: one per server, statement and profile (none: every profile). */
export function statementKey(entry: Pick<BaselineStatementInfo, 'server' | 'statement' | 'profile'>): string {
  return `${entry.server}\u0000${entry.statement}${entry.profile ? `\u0000${entry.profile}` : ''}`;
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
      const all = byKey.get(statementKey({ server: server.server, statement: st.statement }));
      ran.set(statementKey({ server: server.server, statement: st.statement }), st.status);
      delete st.known;
      for (const p of st.profiles ?? []) {
        ran.set(statementKey({ server: server.server, statement: st.statement, profile: p.profile }), p.status);
        delete p.known;
        const entry = byKey.get(statementKey({ server: server.server, statement: st.statement, profile: p.profile })) ?? all;
        if (entry && p.status === 'not met') p.known = { reason: entry.reason };
      }
      if (st.status !== 'not met') continue;
      // Known when the statement's own entry covers it, or each profile it is not met under is covered.
      const under = (st.profiles ?? []).filter((p) => p.status === 'not met');
      const reason = all?.reason ?? (under.length > 0 && under.every((p) => p.known) ? under[0].known!.reason : undefined);
      if (reason !== undefined) {
        st.known = { reason };
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
  const add = (entry: Omit<BaselineStatementInfo, 'reason'>) => {
    const key = statementKey(entry);
    if (!out.some((e) => statementKey(e) === key)) out.push({ ...entry, reason: reasons.get(key) ?? '' });
  };
  for (const server of expectation?.servers ?? [])
    for (const st of server.statements) {
      if (st.status !== 'not met') continue;
      // Judged per client profile: an entry for each profile it is not met under.
      if (st.profiles)
        for (const p of st.profiles.filter((x) => x.status === 'not met')) add({ server: server.server, statement: st.statement, profile: p.profile });
      else add({ server: server.server, statement: st.statement });
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
      s.statements.flatMap((st) => [
        ...(st.status !== 'not shown' ? [statementKey({ server: s.server, statement: st.statement })] : []),
        ...(st.profiles ?? [])
          .filter((p) => p.status !== 'not shown')
          .map((p) => statementKey({ server: s.server, statement: st.statement, profile: p.profile })),
      ]),
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
  return [...entries].sort((a, b) => cmp(a.server, b.server) || cmp(a.statement, b.statement) || cmp(a.profile ?? '', b.profile ?? ''));
}
