/**
 * Attribution of containers to a drill, both ways: what must be the drill's, what must not,
 * and what must stay ambiguous (never a pass). Pure: engine events and CLI sightings in.
 */
import { describe, expect, it } from 'vitest';
import { attribute, parseRunCommand, type CliSighting, type EngineEvent } from '../../harness/containers/index.js';

const T = 1_000_000;
const create = (id: string, wallMs: number, labels: Record<string, string> = {}, image = 'img'): EngineEvent => ({
  id,
  action: 'create',
  wallMs,
  image,
  name: `n-${id}`,
  labels,
  exitCode: null,
});
const cli = (pid: number, argv: string[], from: number, to: number | null): CliSighting => ({
  pid,
  startTime: pid * 10,
  cmdline: argv,
  run: parseRunCommand(argv)!,
  firstSeenWall: from,
  lastSeenWall: to,
});
const SIBLING = ['docker', 'run', '-d', 'img'];

describe('attribute', () => {
  it('takes the container labelled with this drill, and never one labelled by another drill', () => {
    const out = attribute('cd-1.0', [create('a', T, { 'dev.crash-drill.run': 'cd-1.0' }), create('b', T, { 'dev.crash-drill.run': 'cd-2.0' })], [], true);
    expect(out).toEqual({ ours: [{ id: 'a', by: 'label', cli: null }], ambiguous: [] });
  });

  it('ties an unlabelled container to the engine CLI of the drill that asked for its image while it was created', () => {
    const out = attribute('cd-1.0', [create('s', T + 100)], [cli(7, SIBLING, T, T + 300)], true);
    expect(out.ours).toEqual([{ id: 's', by: 'engine-cli', cli: { pid: 7, startTime: 70, cmdline: SIBLING } }]);
    expect(out.ambiguous).toEqual([]);
  });

  it('two identical containers and one CLI (two identical drills on one engine): both ambiguous', () => {
    const out = attribute('cd-1.0', [create('s1', T + 100), create('s2', T + 150)], [cli(7, SIBLING, T, T + 300)], true);
    expect(out.ours).toEqual([]);
    expect(out.ambiguous.map((a) => a.id)).toEqual(['s1', 's2']);
    expect(out.ambiguous[0].reason).toContain('cannot be told apart');
  });

  it('an unlabelled container no CLI of the drill asked for is ambiguous when the drill uses the engine, and ignored when it does not', () => {
    expect(attribute('cd-1.0', [create('x', T)], [], true).ambiguous.map((a) => a.id)).toEqual(['x']);
    expect(attribute('cd-1.0', [create('x', T)], [], false)).toEqual({ ours: [], ambiguous: [] });
    // Another image, or created long after the CLI was gone: not the CLI's container.
    expect(attribute('cd-1.0', [create('y', T, {}, 'other')], [cli(7, SIBLING, T, T + 300)], true).ours).toEqual([]);
    expect(attribute('cd-1.0', [create('z', T + 5000)], [cli(7, SIBLING, T, T + 300)], true).ours).toEqual([]);
  });
});
