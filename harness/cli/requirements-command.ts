/**
 * `crash-drill requirements [--json]`: which requirement each check and each cleanup-expectation
 * statement tests, and where it comes from: the MCP spec (a MUST or a SHOULD, its revision and
 * address), the official conformance suite's traceability row, or practice, with the reason.
 */
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
