/** The cleanup expectation in summary.md: statements × servers, then each statement's deciding drills or what would show it. */
import { profileLabel, profilesText, staleAdvice, STATEMENT_IDS, STATEMENT_LABELS } from '../harness/results/constants.js';
import type { BaselineInfo, ExpectationResults, ServerExpectation, StatementResult } from '../harness/results/types.js';

export const STATUS_ICON: Record<string, string> = { met: '✅', 'not met': '❌', 'not shown': '❔', known: '🔷' };

type Escape = (s: string) => string;

/** `not met` of a statement the baseline lists reads `known`, as a check's known failure does. */
export function statusOf(st: StatementResult): string {
  return st.status === 'not met' && st.known ? 'known' : st.status;
}

export function expectationMarkdown(expectation: ExpectationResults | undefined, baseline: BaselineInfo | undefined, md: Escape, code: Escape): string[] {
  const stale = baseline?.statements?.stale ?? [];
  const staleLines = stale.length
    ? [
        '## Stale baseline statements',
        '',
        `They are met now and fail the run: ${staleAdvice(stale.length, baseline?.file ?? '', code)}.`,
        '',
        ...stale.map((e) => `- ${md(e.server)} **${md(e.statement)}**: listed as not met, now met`),
        '',
      ]
    : [];
  if (!expectation || expectation.servers.length === 0) return staleLines;
  const { servers } = expectation;
  const ids = STATEMENT_IDS.filter((id) => servers.some((s) => s.statements.some((st) => st.statement === id)));
  const lines = [
    '## Cleanup expectation',
    '',
    `Each server's statements: met, not met or not shown, and the drills that decide them. ${notMetLine(expectation)}`,
    '',
    `| statement | ${servers.map((s) => md(s.server)).join(' | ')} |`,
    `| --- | ${servers.map(() => ':---:').join(' | ')} |`,
  ];
  for (const id of ids) {
    const cells = servers.map((s) => {
      const st = s.statements.find((x) => x.statement === id);
      if (!st) return '–';
      const n = st.drills.length;
      const ms = st.ms !== undefined ? ` (${st.ms} ms)` : '';
      const status = statusOf(st);
      const under = st.profiles ? `: ${md(profilesText(st.profiles))}` : '';
      return `${STATUS_ICON[status]} ${status}${ms}${n > 0 ? `, ${n} drill${n === 1 ? '' : 's'}` : ''}${under}`;
    });
    lines.push(`| ${md(STATEMENT_LABELS[id])} | ${cells.join(' | ')} |`);
  }
  lines.push('');
  for (const server of servers) lines.push(...serverSection(server, md, code));
  return [...lines, ...staleLines];
}

function notMetLine(e: ExpectationResults): string {
  const known = e.known ? `; ${e.known} not met that the baseline lists` : '';
  return e.notMet === 0
    ? `No statement fails the run${known}.`
    : `${e.notMet} statement${e.notMet === 1 ? '' : 's'} not met fail${e.notMet === 1 ? 's' : ''} the run${known}.`;
}

function serverSection(server: ServerExpectation, md: Escape, code: Escape): string[] {
  const lines = [`### ${md(server.server)}`, '', `${code([server.command, ...server.args].join(' '))}`, ''];
  for (const st of server.statements) {
    const status = statusOf(st);
    // Under several client profiles each profile's line below names its drills: the statement's own list would repeat them all.
    const drills = st.profiles?.length ? '' : st.drills.map(code).join(', ');
    let line = `- ${STATUS_ICON[status]} **${status}** ${md(st.text)}`;
    if (st.known) line += ` (baseline: ${st.known.reason ? md(st.known.reason) : '_no reason written_'})`;
    if (drills) line += `: ${drills}`;
    if (st.wouldShow) line += `: would be shown by ${md(st.wouldShow.text)}`;
    lines.push(line);
    if (st.couldNotTell?.length) lines.push(`  - could not tell: ${st.couldNotTell.map(code).join(', ')}`);
    for (const p of st.profiles ?? [])
      lines.push(
        `  - under ${code(profileLabel(p.profile, p.versions))}: ${p.status}${p.known ? ' (baseline)' : ''}${p.drills.length ? `: ${p.drills.map(code).join(', ')}` : ''}`,
      );
  }
  lines.push('');
  return lines;
}

/** The statements that fail the run, one line each, for the terminal: `  <server>: <statement> (<drills>)`. */
export function notMetLines(expectation: ExpectationResults | undefined): string[] {
  return (expectation?.servers ?? []).flatMap((s) =>
    s.statements.filter((st) => st.status === 'not met' && !st.known).map((st) => `  ${s.server}: ${st.text} (${st.drills.join(', ')})\n`),
  );
}
