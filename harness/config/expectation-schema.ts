/** The `expectation:` of a scenario or a subject, as written: statements, each a name or `{ exits-within: ms }`. */
import * as z from 'zod';
import { STATEMENT_IDS } from './statements.js';

export const ExitsWithinSchema = z.strictObject({ 'exits-within': z.number().int().positive() });

export const StatementSchema = z
  .union([z.enum(STATEMENT_IDS), ExitsWithinSchema], {
    error: `expected a statement (${STATEMENT_IDS.join(', ')}) or a mapping { exits-within: ms }`,
  })
  .describe('A statement a drill can show; exits-within with its ms, or bare for the exit-on-eof deadline');

export const ExpectationSchema = z
  .array(StatementSchema)
  .min(1)
  .describe("The server's cleanup expectation: each run says of each statement met, not met or not shown")
  .superRefine((list, ctx) => {
    const ids = list.map((s) => (typeof s === 'string' ? s : 'exits-within'));
    ids.forEach((id, i) => {
      if (ids.indexOf(id) !== i) ctx.addIssue({ code: 'custom', path: [i], message: `duplicate statement "${id}"; list each once` });
    });
  });

export type ExpectationInput = z.input<typeof ExpectationSchema>;
