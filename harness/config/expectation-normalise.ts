import type { ExpectationInput } from './expectation-schema.js';
import type { DeclaredStatement } from './statements.js';

/** The file's statements as the run uses them: a bare `exits-within` takes `exitDeadline` (the scenario's exit deadline). */
export function normaliseExpectation(list: ExpectationInput | undefined, exitDeadline: number): DeclaredStatement[] | undefined {
  if (list === undefined) return undefined;
  return list.map((s) => {
    if (typeof s !== 'string') return { id: 'exits-within', ms: s['exits-within'] };
    return s === 'exits-within' ? { id: s, ms: exitDeadline } : { id: s };
  });
}
