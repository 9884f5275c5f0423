/**
 * A maintainer's report for a server the survey found something in: per finding, the drill that
 * shows it, its incident record, the diagnosis and its fix, and the command that reproduces it,
 * ready to file upstream. Secrets never appear: a dummy token is named, never given.
 */
import type { CatalogEntry } from '../config/index.js';
import type { DrillResult } from '../results/types.js';
import type { SurveyRow } from './table.js';

const q = (s: string) => (/^[A-Za-z0-9@%+=:,./_-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

export function reproduceCommand(entry: CatalogEntry, d: DrillResult, args: Record<string, unknown> | null): string {
  const env = Object.keys(entry.secrets).map((k) => `${k}=<any dummy value>`);
  // {{project}} is this package; the other placeholders stay, for the reader to fill (docs/survey.md says what each is).
  const launch = entry.launch.map((w) => w.replaceAll('{{project}}', 'node_modules/mcp-crash-drill'));
  const words = ['npx', '-y', 'mcp-crash-drill', 'run', '--subject', q(launch.join(' '))];
  if (d.point !== 'idle' && args !== null) {
    const call = entry.calls.find((c) => d.scenario.endsWith(c.tool.toLowerCase().replace(/[^a-z0-9._-]+/g, '-')));
    if (call) words.push('--call', q(call.tool), '--args', q(JSON.stringify(args)));
  }
  words.push('--point', d.point, '--mode', d.mode, '--client-profile', d.clientProfile);
  return `${env.length > 0 ? `${env.join(' ')} ` : ''}${words.join(' ')}   # in a folder with no scenarios/; loopback only: unshare -n (root)`;
}

export function maintainerReport(
  entry: CatalogEntry,
  row: SurveyRow,
  leads: DrillResult[],
  argsOf: (d: DrillResult) => Record<string, unknown> | null,
): string {
  const out: string[] = [
    `# ${entry.package} ${entry.version}: what \`crash-drill survey\` found`,
    '',
    `Repository: https://github.com/${entry.repository} · registry: ${entry.registry} · language: ${entry.language}`,
    `SDK read from the program: ${row.sdkRead ?? 'not read'} (documented: ${entry.sdk})`,
    entry.issues.length > 0 ? `Known lifecycle issues: ${entry.issues.join(', ')}` : '',
    '',
    '## Cells',
    '',
    ...Object.entries(row.cells).map(([p, c]) => `- ${p}: ${c!.text}${c!.shownBy.length > 0 ? ` (shown by ${c!.shownBy.join(', ')})` : ''}`),
  ];
  for (const d of leads) {
    out.push('', `## ${d.point}/${d.mode} under ${d.clientProfile}: ${d.reason}`, '');
    for (const c of d.checks.filter((c) => c.verdict === 'fail')) out.push(`- ${c.id}: ${c.summary}`);
    for (const g of d.incident.diagnosis ?? []) {
      out.push('', `Diagnosis (${g.check}): ${g.cause}`, ...g.observed.map((o) => `  - ${o}`));
      if (g.sdk) out.push(`SDK: ${g.sdk}`);
      out.push(`Fix: ${g.fix}`);
    }
    if (d.survivors.length > 0) out.push('', 'Left behind:', ...d.survivors.map((s) => `  - pid ${s.pid} ppid ${s.ppid}: ${s.cmdline.join(' ')}`));
    out.push('', 'Reproduce:', '', '```', reproduceCommand(entry, d, argsOf(d)), '```');
    out.push(
      '',
      `Evidence: ${d.evidence?.file ?? 'none'} (head ${d.evidence?.head ?? '-'})`,
      '',
      'Incident record:',
      '',
      '```json',
      JSON.stringify(d.incident, null, 2),
      '```',
    );
  }
  return `${out.filter((l, i, a) => !(l === '' && a[i - 1] === '')).join('\n')}\n`;
}
