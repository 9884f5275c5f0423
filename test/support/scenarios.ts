/**
 * Scenarios for tests. With test/support/until.ts (the one wait for a condition),
 * test/support/cleanup.ts (the one process cleaner) and test/support/temp-dir.ts (the one temp
 * folder), this is the suite's support library: a scenario is written as a typed object
 * (scenarioYaml, fakeSubject) and turned into the YAML a user would write.
 */
import { accessSync, closeSync, constants, openSync, readSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { parseScenario, type Scenario, type ScenarioInput } from '../../harness/config/index.js';
import { packageRoot } from '../../harness/util/paths.js';
import { tempDir } from './temp-dir.js';

export const FAKE_SERVERS = [
  'well-behaved',
  'ignores-eof',
  'leaks-child',
  'daemonizes',
  'daemonizes-clean-env',
  'shell-daemon',
  'stdout-noise',
  'slow-exit',
  'ignores-sigterm',
  'python-well-behaved',
] as const;
export type FakeServer = (typeof FAKE_SERVERS)[number] | 'crashes-on-epipe' | 'leaks-stdin-holder';

let python: string | undefined;

/**
 * The first python3 on PATH that is a program, not a script, and that any user can run. On PATH,
 * python3 may be a version manager's shim: on this project's machines pyenv's comes first, and
 * runs about ten bash scripts before Python starts (about 300 ms of CPU a start here). The drills
 * test the server, not the shim (wrappers have tests of their own). A pyenv shell puts pyenv's
 * own interpreter first (~/.pyenv/versions/X/bin, as `pyenv exec` does): under a home folder of
 * mode 0700 uid 65534 cannot run it, so a program others can run comes first, and the same
 * interpreter serves root and an ordinary user. Where no python3 on PATH is open to others, the
 * first program is taken, and a test that drops privileges says why it cannot run it.
 */
export function python3(): string {
  if (python === undefined) {
    const programs = (process.env.PATH ?? '').split(delimiter).flatMap((dir) => {
      const file = join(dir || '.', 'python3');
      return isProgram(file) ? [file] : [];
    });
    python = programs.find(openToOthers) ?? programs[0] ?? 'python3';
  }
  return python;
}

/** An executable ELF file (not a shell script or a shim). */
function isProgram(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    const head = Buffer.alloc(4);
    const fd = openSync(file, 'r');
    try {
      readSync(fd, head, 0, 4, 0);
    } finally {
      closeSync(fd);
    }
    return head.equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));
  } catch {
    return false; // not there, or not for us
  }
}

/** Whether any user may run a file: others may execute it and enter every folder above it. */
function openToOthers(file: string): boolean {
  try {
    const real = realpathSync(file);
    if ((statSync(real).mode & 0o001) === 0) return false;
    for (let dir = dirname(real); ; dir = dirname(dir)) {
      if ((statSync(dir).mode & 0o001) === 0) return false;
      if (dirname(dir) === dir) return true;
    }
  } catch {
    return false;
  }
}

export type SubjectInput = NonNullable<ScenarioInput['subject']>;
/** Fields shared by several scenarios of a test, spread into each. */
export type ScenarioParts = Partial<ScenarioInput>;

/**
 * A scenario file's text from a typed object (the file shape, kebab-case keys): the object is
 * checked by the compiler against the scenario schema's input type, and the text is what a user
 * would write. A test that means to write an invalid file writes its text by hand.
 */
export function scenarioYaml(scenario: ScenarioInput): string {
  return stringify(scenario, { lineWidth: 0 });
}

/** The subject of a bundled fake server, by absolute path. */
export function fakeSubject(server: FakeServer, env: Record<string, string> = {}, root = packageRoot()): SubjectInput {
  const [command, script] =
    server === 'python-well-behaved' ? [python3(), join(root, 'fake-servers/python/well-behaved.py')] : ['node', join(root, `dist/fake-servers/${server}.js`)];
  return { command, args: [script], name: server, ...(Object.keys(env).length ? { env } : {}) };
}

/** Writes the YAML into a temp folder and parses it the way the CLI does. */
export function scenarioFrom(yaml: string, dir = tempDir(), name = 'scenario.yaml'): Scenario {
  const file = join(dir, name);
  writeFileSync(file, yaml);
  return parseScenario(yaml, file);
}

/** well-behaved with a target that starts no child: `child-spawned` is never reached (unknown, never a pass). */
export function noChildYaml(id = 'no-child'): string {
  return scenarioYaml({
    id,
    subject: fakeSubject('well-behaved'),
    target: { call: 'echo', args: { text: 'hi' } },
    points: ['child-spawned'],
    modes: ['crash'],
    timeouts: { point: 500 },
  });
}

/**
 * A command on no PATH folder, where PATH is the drill's own temp folder: the early refusal
 * (harness/config/subject-command.ts) cannot judge a per-drill path, so the drill itself errs.
 */
export const MISSING_COMMAND_YAML = scenarioYaml({
  id: 'missing',
  subject: { command: 'mcp-server', env: { PATH: '{{tmp}}' } },
  target: { call: 'echo' },
  points: ['idle'],
  modes: ['crash'],
});
