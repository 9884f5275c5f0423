/** The scenario of `crash-drill run --subject '<cmd>'` alone: `idle`, or with `--call <tool>` the points every call reaches. */
import path from 'node:path';
import { validateScenario } from './parse.js';
import { ID_PATTERN } from './schema.js';
import { DEFAULT_KILL_MODES, type KillPoint, type Scenario, type SubjectSpec, type ToolCallSpec } from './types.js';

/** With a call: the points any call reaches, as `crash-drill init` drills (harness/init/render.ts); others must be chosen. */
export const SUBJECT_POINTS: readonly KillPoint[] = Object.freeze(['idle'] as const);
export const SUBJECT_CALL_POINTS: readonly KillPoint[] = Object.freeze(['idle', 'pre-dispatch', 'in-flight', 'after-response'] as const);

/** Stands for the scenario's file in messages: it has none (`--subject: target.args: ...`). */
export const SUBJECT_SCENARIO_FILE = '--subject';

export function subjectScenario(subjects: readonly SubjectSpec[], cwd: string, call: ToolCallSpec | null): Scenario {
  const scenario = validateScenario(
    {
      id: subjects.length === 1 ? idFromName(subjects[0].name) : 'subjects',
      subjects: subjects.map(({ name, command, args }) => ({ name, command, args })),
      ...(call ? { target: { call: call.call, args: call.args } } : {}),
      points: [...(call ? SUBJECT_CALL_POINTS : SUBJECT_POINTS)],
      modes: [...DEFAULT_KILL_MODES],
    },
    path.join(cwd, SUBJECT_SCENARIO_FILE),
  );
  return { ...scenario, subject: subjects[0], subjects: [...subjects] };
}

/** A scenario id from a subject's name (`well-behaved.js`, `@scope/Server` -> `scope-server`): the id's characters, lower-case. */
export function idFromName(name: string): string {
  const id = name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .replace(/-+$/, '');
  return ID_PATTERN.test(id) ? id : 'subject';
}
