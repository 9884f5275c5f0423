/** `crash-drill profiles [--json]`: every client profile's version ranges, steps and each step's source, or `unsourced` and why. */
import {
  CLIENT_PROFILES,
  describeRange,
  PROFILE_NAMES,
  STEP_NAMES,
  type ClientBehaviour,
  type StepSource,
  type StopStep,
} from '../client-profiles/profiles.js';
import { refOf } from '../client-profiles/versions.js';
import { EXIT } from '../util/errors.js';

type Out = { write(s: string): unknown };

function stepText(step: StopStep): string {
  const when = (l: string | null) => (l ? ` if the ${l} lives` : '');
  const sent = (i: number | undefined) => (i === undefined ? '' : ` if step ${i} was sent`);
  if (step.kind === 'close-stdin') return `close stdin${when(step.onlyIfAlive)}`;
  if (step.kind === 'wait-ms') return `wait <= ${step.ms} ms${step.endsWhenGone ? ` for the ${step.endsWhenGone}` : ''}${sent(step.onlyIfSent)}`;
  if (step.kind === 'abandon') return 'drop the server, its pipes held open';
  return `${step.name} to the ${step.to}${when(step.onlyIfAlive)}${sent(step.onlyIfSent)}`;
}

/** Each step of a behaviour in words, keyed as its sources are. */
function steps(b: ClientBehaviour): Record<(typeof STEP_NAMES)[number], string> {
  const env = b.spawn.env;
  return {
    spawn: `${b.spawn.group} group, stdio ${b.spawn.stdio}, stderr ${b.spawn.stderr}, parent-death signal ${b.spawn.parentDeathSignal ?? 'none'}`,
    env:
      env.kind === 'allowlist'
        ? `only ${env.names.join(', ')} + configured`
        : env.rules.length
          ? `whole, filtered by ${env.rules.length} rules + configured`
          : 'whole + configured',
    stop: `${b.stop.map(stepText).join('; ')}${b.closesStdinWhenChildExits ? '; the runtime closes stdin when the child exits' : ''}`,
    crash: b.crash === 'eof' ? 'EOF' : `EOF + ${b.crash.signal} to the ${b.crash.to}`,
    abandon: b.abandons ?? 'no path read',
  };
}

function sourceText(source: StepSource): string {
  if ('unsourced' in source) return `unsourced: ${source.unsourced}`;
  return source.cited.map((c) => `${c.repo} ${c.where} (${c.what}) @ ${c.version}`).join('\n        ');
}

export function profilesList() {
  return {
    profiles: PROFILE_NAMES.map((name) => {
      const profile = CLIENT_PROFILES[name];
      return {
        name,
        client: profile.client,
        behaviours: profile.behaviours.map((b) => ({
          ref: refOf(profile, b),
          versions: b.versions,
          client: b.client,
          observed: b.observed,
          facts: { spawn: b.spawn, stop: b.stop, closesStdinWhenChildExits: b.closesStdinWhenChildExits, crash: b.crash, abandons: b.abandons },
          steps: steps(b),
          sources: Object.fromEntries(
            STEP_NAMES.map((s) => [
              s,
              'unsourced' in b.sources[s] ? { unsourced: true, rests: (b.sources[s] as { unsourced: string }).unsourced } : b.sources[s],
            ]),
          ),
        })),
      };
    }),
  };
}

export function profilesCommand(options: { json?: boolean }, out: Out = process.stdout): number {
  if (options.json) {
    out.write(`${JSON.stringify(profilesList(), null, 2)}\n`);
    return EXIT.ok;
  }
  for (const name of PROFILE_NAMES) {
    const profile = CLIENT_PROFILES[name];
    out.write(`${name}: ${profile.client}\n`);
    for (const b of profile.behaviours) {
      out.write(`  ${refOf(profile, b)} = ${name}@${describeRange(b.versions)}${b.observed ? ', observed' : ''}\n    since: ${b.versions.since}\n`);
      const said = steps(b);
      for (const step of STEP_NAMES) out.write(`    ${step}: ${said[step]}\n      ${sourceText(b.sources[step])}\n`);
    }
  }
  return EXIT.ok;
}
