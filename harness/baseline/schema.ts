/** The baseline file (`crash-drill.baseline.json`), validated with zod as scenarios are (harness/config/schema.ts). */
import * as z from 'zod';
import { CHECKS } from '../checks/all-checks.js';
import { KILL_MODES, KILL_POINTS } from '../config/index.js';
import { ProfileRefSchema, STATEMENT_IDS } from '../config/index.js';
import { PROFILE_NAMES } from '../client-profiles/names.js';

export const BASELINE_VERSION = 1;

const CHECK_IDS = CHECKS.map((c) => c.id) as [string, ...string[]];

/** The conformance suite's ids the checks test (harness/requirements/): an entry may name one instead of a check. */
export const CONFORMANCE_IDS = [...new Set(CHECKS.filter((c) => c.requirement.source === 'conformance').map((c) => c.requirement.id))];

/** The checks that test a conformance id (an entry naming it stands for each of them). */
export function checksOfConformance(id: string): string[] {
  return CHECKS.filter((c) => c.requirement.source === 'conformance' && c.requirement.id === id).map((c) => c.id);
}

/** `<scenario>[/<subject>]/<point>/<mode>[@<profile>[@<range>]]`, as results.json names a drill (its `key`). */
const DRILL_KEY = new RegExp(`^[^/]+(/[^/]+)?/(${KILL_POINTS.join('|')})/(${KILL_MODES.join('|')})(@(${PROFILE_NAMES.join('|')})(@[^/@,]+)?)?$`);

export const BaselineEntrySchema = z
  .strictObject({
    drill: z.string().regex(DRILL_KEY, {
      error: `expected a drill key <scenario>[/<subject>]/<point>/<mode>[@<client profile>[@<range>]] (points: ${KILL_POINTS.join(', ')}; modes: ${KILL_MODES.join(', ')})`,
    }),
    check: z
      .enum([...CHECK_IDS, ...CONFORMANCE_IDS] as [string, ...string[]], {
        error: `expected a check id (${CHECK_IDS.join(', ')}), a conformance id a check tests (${CONFORMANCE_IDS.join(', ')}), or null for the drill itself`,
      })
      .nullable(),
    verdict: z.enum(['fail', 'unknown', 'error'], { error: 'expected fail, unknown or error (entries are what did not pass)' }),
    reason: z.string({ error: 'expected a string: why this failure is accepted for now ("" until someone writes it)' }),
  })
  .superRefine((entry, ctx) => {
    if (entry.check === null && entry.verdict === 'fail')
      ctx.addIssue({ code: 'custom', path: ['check'], message: "expected a check id: a failure is always a check's (null is for an error or unknown drill)" });
    if (entry.check !== null && entry.verdict === 'error')
      ctx.addIssue({ code: 'custom', path: ['check'], message: "expected null: an error is the drill's, not a check's" });
  });

/** A cleanup-expectation statement a server does not meet yet (harness/expectation/baseline.ts). */
export const BaselineStatementSchema = z.strictObject({
  server: z.string().min(1, { error: 'expected the server as results.json names it (its subject name)' }),
  statement: z.enum(STATEMENT_IDS, { error: `expected a statement (${STATEMENT_IDS.join(', ')})` }),
  /** Known not met under this client profile only; absent: under every profile. */
  profile: ProfileRefSchema.optional(),
  reason: z.string({ error: 'expected a string: why this statement is accepted as not met for now ("" until someone writes it)' }),
});

export const BaselineFileSchema = z.strictObject({
  version: z.literal(BASELINE_VERSION, { error: `expected ${BASELINE_VERSION}` }),
  entries: z.array(BaselineEntrySchema),
  statements: z.array(BaselineStatementSchema).optional(),
});
