import * as z from 'zod';
import { DEFAULT_KILL_POINTS, KILL_MODES, KILL_POINTS } from './types.js';

/**
 * The file shape of a scenario, validated with zod 4. Every object is strict: an unknown key
 * is an error (with a "did you mean", see issues.ts), because a misspelt `timeout` that is
 * silently ignored makes a drill test something other than what its author meant.
 *
 * Messages given here with `error:` are the "expected ..." half of a problem; issues.ts adds
 * the "got ..." half from the raw value, so they must not end in punctuation.
 */

export const ID_PATTERN = /^[a-z0-9][a-z0-9._-]*$/;
// POSIX leaves env names open, but `=` ends a name and NUL ends the string (environ(7)).
const ENV_NAME = /^[^=\0]+$/;

const positiveMs = z.number().int().positive();
const nonNegativeMs = z.number().int().nonnegative();

function uniqueList<S extends z.ZodType<string>>(item: S, what: string) {
  return z
    .array(item)
    .min(1)
    .superRefine((list, ctx) => {
      list.forEach((v, i) => {
        if (list.indexOf(v) !== i) {
          ctx.addIssue({ code: 'custom', path: [i], message: `duplicate ${what} "${v}"; list each once` });
        }
      });
    });
}

export const SubjectSchema = z.strictObject({
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z
    .record(z.string().regex(ENV_NAME, { error: 'expected an environment variable name without "="' }), z.string())
    .default({}),
  cwd: z.string().min(1).optional(),
  name: z.string().min(1).optional(),
});

export const ToolCallSchema = z.strictObject({
  call: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
});

export const TimeoutsSchema = z.strictObject({
  handshake: positiveMs.optional(),
  point: positiveMs.optional(),
  'in-flight-delay': nonNegativeMs.optional(),
  'close-wait': positiveMs.optional(),
});

export const ExitOnEofSchema = z.strictObject({ deadline: positiveMs.optional() });
export const NoSurvivorsSchema = z.strictObject({ grace: nonNegativeMs.optional() });

/** Checks defined by later parts of the harness: accepted now, stored raw in `expect.extra`. */
export const EXTRA_EXPECT_KEYS = [
  'idempotent-effects',
  'denied-after-revocation',
  'quiet-after-loss',
  'jobs-settled',
] as const;

const extraExpect = z
  .union([z.boolean(), z.record(z.string(), z.unknown())], { error: 'expected true, false or a mapping' })
  .optional();

export const ExpectSchema = z.strictObject({
  'exit-on-eof': z
    .union([z.boolean(), ExitOnEofSchema], { error: 'expected true, false or a mapping { deadline: ms }' })
    .optional(),
  'no-survivors': z
    .union([z.boolean(), NoSurvivorsSchema], { error: 'expected true, false or a mapping { grace: ms }' })
    .optional(),
  'stdout-clean': z.boolean().optional(),
  'idempotent-effects': extraExpect,
  'denied-after-revocation': extraExpect,
  'quiet-after-loss': extraExpect,
  'jobs-settled': extraExpect,
});

export const ScenarioSchema = z.strictObject({
  id: z.string().regex(ID_PATTERN, {
    error: `expected an id matching ${ID_PATTERN.source.slice(1, -1)} (lower-case letters, digits, ".", "_", "-")`,
  }),
  description: z.string().optional(),
  subject: SubjectSchema,
  setup: z.array(ToolCallSchema).default([]),
  target: ToolCallSchema,
  points: uniqueList(z.enum(KILL_POINTS), 'kill point').default([...DEFAULT_KILL_POINTS]),
  modes: uniqueList(z.enum(KILL_MODES), 'kill mode').default([...KILL_MODES]),
  timeouts: TimeoutsSchema.optional(),
  expect: ExpectSchema.optional(),
});

/** The shape of a scenario file, as written (kebab-case keys, defaults optional). */
export type ScenarioInput = z.input<typeof ScenarioSchema>;
/** The shape after validation, before normalisation. */
export type ParsedScenario = z.output<typeof ScenarioSchema>;

/**
 * The keys each object accepts, by field path with list indexes written `[]`. Used for
 * "did you mean" on unknown keys, including keys written at the wrong level.
 */
export const KNOWN_KEYS: Readonly<Record<string, readonly string[]>> = {
  '': Object.keys(ScenarioSchema.shape),
  subject: Object.keys(SubjectSchema.shape),
  'setup[]': Object.keys(ToolCallSchema.shape),
  target: Object.keys(ToolCallSchema.shape),
  timeouts: Object.keys(TimeoutsSchema.shape),
  expect: Object.keys(ExpectSchema.shape),
  'expect.exit-on-eof': Object.keys(ExitOnEofSchema.shape),
  'expect.no-survivors': Object.keys(NoSurvivorsSchema.shape),
};
