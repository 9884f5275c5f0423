/** `crash-drill requirements [--json]`: what each check and statement tests and its source (spec, conformance row, or practice with why). */
import { requirementLine, requirementsList } from '../results/requirements.js';
import { EXIT } from '../util/errors.js';

type Out = { write(s: string): unknown };

export function requirementsCommand(options: { json?: boolean }, out: Out = process.stdout): number {
  const list = requirementsList();
  if (options.json) {
    out.write(`${JSON.stringify(list, null, 2)}\n`);
    return EXIT.ok;
  }
  const section = (title: string, rows: typeof list.checks) =>
    `${title}\n${rows.map(({ id, requirement }) => `  ${id}\n    ${requirementLine(requirement)}\n`).join('')}`;
  out.write(`${section('Checks:', list.checks)}\n${section('Cleanup-expectation statements:', list.statements)}`);
  return EXIT.ok;
}
