/** `subject.activity`: where and how to read the record of a server that logs its own way (docs/remote.md, "The server's own activity record"). */
import * as z from 'zod';
import { ACTIVITY_PHASES, type ActivityField, type ActivityPhase, type ActivitySpec } from './types.js';

/** What `{{activity.file}}` and CRASH_DRILL_ACTIVITY_FILE name: the drill's own record file. */
export const ACTIVITY_FILE_TEMPLATE = '{{activity.file}}';

/** The record as docs/remote.md shows it: our field names, our phases, in the drill's own file. */
export const DEFAULT_ACTIVITY: Readonly<ActivitySpec> = Object.freeze({
  source: { kind: 'file' as const, path: ACTIVITY_FILE_TEMPLATE },
  fields: { t: 't', key: 'key', phase: 'phase', session: 'session', operation: 'operation', target: 'target', remoteId: 'remoteId' },
  phases: { started: 'started', result: 'result', unresolved: 'unresolved' },
});

// A field of the record, by name; a dotted name reaches into a nested object (`ctx.requestId`).
const fieldName = z.string().regex(/^[^.\s]+(\.[^.\s]+)*$/, { error: 'expected a field name (a dotted name for a nested field, no spaces)' });
const phaseValue = z.string().min(1);

export const ActivityFieldsSchema = z.strictObject({
  t: fieldName.optional(),
  key: fieldName.optional(),
  phase: fieldName.optional(),
  session: fieldName.optional(),
  operation: fieldName.optional(),
  target: fieldName.optional(),
  'remote-id': fieldName.optional(),
});

export const ActivityPhasesSchema = z.strictObject({ started: phaseValue.optional(), result: phaseValue.optional(), unresolved: phaseValue.optional() });

export const ActivitySchema = z
  .strictObject({
    /** Another file than {{activity.file}}: a path, templated like env, relative to the subject's cwd. */
    file: z.string().min(1).optional(),
    /** Instead of a file: the server's stderr lines that match; the JSON object is the group `json`, else group 1, else the line. */
    stderr: z.string().min(1).optional(),
    fields: ActivityFieldsSchema.optional(),
    phases: ActivityPhasesSchema.optional(),
  })
  .superRefine((a, ctx) => {
    if (a.file !== undefined && a.stderr !== undefined)
      ctx.addIssue({ code: 'custom', path: ['stderr'], message: 'expected either file or stderr, not both: the record is read from one place' });
    if (a.stderr !== undefined) {
      try {
        new RegExp(a.stderr);
      } catch (error) {
        ctx.addIssue({ code: 'custom', path: ['stderr'], message: `expected a regular expression (JavaScript syntax): ${(error as Error).message}` });
      }
    }
    // subject.files are written from templates that hold credentials: never read back into the evidence.
    if (a.file !== undefined && /\{\{\s*files\./.test(a.file))
      ctx.addIssue({
        code: 'custom',
        path: ['file'],
        message: 'expected a file the server writes, not one of subject.files: those hold credentials and are never read into the evidence',
      });
    const phases = Object.entries(a.phases ?? {});
    for (const [i, [name, value]] of phases.entries()) {
      const other = phases.findIndex(([, v], j) => j !== i && v === value);
      if (other >= 0 && other < i)
        ctx.addIssue({ code: 'custom', path: ['phases', name], message: `expected a value of its own, got "${value}", the value of ${phases[other][0]} too` });
    }
  });

export type ActivityInput = z.input<typeof ActivitySchema>;

const FIELD_KEYS: ReadonlyArray<[ActivityField, keyof NonNullable<ActivityInput['fields']>]> = [
  ['t', 't'],
  ['key', 'key'],
  ['phase', 'phase'],
  ['session', 'session'],
  ['operation', 'operation'],
  ['target', 'target'],
  ['remoteId', 'remote-id'],
];

/** The section as the drill uses it: every field name and phase value filled in. */
export function normaliseActivity(a: ActivityInput): ActivitySpec {
  const fields = { ...DEFAULT_ACTIVITY.fields };
  for (const [ours, key] of FIELD_KEYS) fields[ours] = a.fields?.[key] ?? fields[ours];
  const phases = { ...DEFAULT_ACTIVITY.phases };
  for (const phase of ACTIVITY_PHASES) phases[phase as ActivityPhase] = a.phases?.[phase] ?? phases[phase];
  const source: ActivitySpec['source'] =
    a.stderr !== undefined ? { kind: 'stderr', pattern: a.stderr } : { kind: 'file', path: a.file ?? ACTIVITY_FILE_TEMPLATE };
  return { source, fields, phases };
}
