/**
 * The cleanup expectation in junit.xml: a testcase `<server>: <statement>` each; not met is a
 * <failure> (<skipped> `known` when baselined), not shown <skipped> with what would show it; a
 * baselined statement met now fails, as a stale entry does.
 */
import { profilesText, staleAdvice } from '../harness/results/constants.js';
import { STATEMENT_LABELS } from '../harness/results/constants.js';
import type { RunReport, ServerExpectation, StatementResult } from '../harness/results/types.js';

export const EXPECTATION_SUITE = 'cleanup expectation';

export interface ExpectationCase {
  name: string;
  outcome: { kind: 'failure' | 'skipped'; message: string; type: string; body: string } | null;
  systemOut: string;
}

/** The suite's cases and its properties (each server's command), or null when the run judged no expectation and the baseline names no statement. */
export function expectationCases(results: Pick<RunReport, 'expectation' | 'baseline'>): { cases: ExpectationCase[]; properties: [string, string][] } | null {
  const servers = results.expectation?.servers ?? [];
  const stale = results.baseline?.statements?.stale ?? [];
  if (servers.length === 0 && stale.length === 0) return null;
  const file = results.baseline?.file ?? '';
  return {
    cases: [
      ...servers.flatMap((server) => server.statements.map((st) => statementCase(server, st))),
      ...stale.map((e) => {
        const message = `stale baseline statement: ${e.server} ${e.statement} is met now; ${staleAdvice(1, file)}`;
        return {
          name: `${e.server}: ${STATEMENT_LABELS[e.statement]} (baseline)`,
          outcome: { kind: 'failure' as const, message, type: 'stale-baseline', body: `${message}\n` },
          systemOut: '',
        };
      }),
    ],
    properties: servers.map((s) => [`${s.server} command`, [s.command, ...s.args].join(' ')]),
  };
}

function statementCase(server: ServerExpectation, st: StatementResult): ExpectationCase {
  const facts = [
    `checks: ${st.checks.join(', ')}`,
    ...(st.drills.length > 0 ? [`drills: ${st.drills.join(', ')}`] : []),
    ...(st.couldNotTell?.length ? [`could not tell: ${st.couldNotTell.join(', ')}`] : []),
    ...(st.profiles ? [`client profiles: ${profilesText(st.profiles)}`] : []),
  ];
  const systemOut = `${facts.join('\n')}\n`;
  const name = `${server.server}: ${st.text}`;
  if (st.status === 'met') return { name, outcome: null, systemOut };
  if (st.status === 'not shown') {
    const would = st.wouldShow ? `would be shown by ${st.wouldShow.text}` : 'no drill could tell';
    return { name, outcome: { kind: 'skipped', message: `not shown: ${would}`, type: 'not-shown', body: '' }, systemOut };
  }
  const body = `${server.server} ${st.text}: not met, shown by ${st.drills.join(', ')}\n`;
  if (st.known)
    return {
      name,
      outcome: { kind: 'skipped', message: `known (baseline): ${st.known.reason || 'no reason written in the baseline'}`, type: 'known', body },
      systemOut,
    };
  return { name, outcome: { kind: 'failure', message: `not met: ${st.text}`, type: 'expectation-not-met', body }, systemOut };
}
