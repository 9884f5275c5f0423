/** Recognising and labelling `docker run` / `podman run`: pure, runs without an engine. */
import { describe, expect, it } from 'vitest';
import { isLauncher } from '../../harness/observe/index.js';
import { labelCommand, parseRunCommand } from '../../harness/containers/index.js';

describe('parseRunCommand', () => {
  it('finds the image, name, labels and flags past options with values and bundled short flags', () => {
    const run = parseRunCommand([
      '/usr/bin/docker',
      '-H',
      'unix:///x.sock',
      'run',
      '-it',
      '--rm',
      '--init',
      '-e',
      'A=1',
      '-v',
      '/a:/b',
      '--name=srv',
      '-l',
      'k=v',
      '--pull',
      'never',
      'ghcr.io/github/github-mcp-server',
      'stdio',
    ]);
    expect(run).toMatchObject({
      engine: 'docker',
      subcommand: 'run',
      endpoint: ['-H', 'unix:///x.sock'],
      image: 'ghcr.io/github/github-mcp-server',
      name: 'srv',
      labels: { k: 'v' },
      interactive: true,
      rm: true,
      init: true,
      detach: false,
    });
    expect(parseRunCommand(['podman', 'container', 'run', '-d', 'alpine'])).toMatchObject({ engine: 'podman', image: 'alpine', detach: true });
  });

  it('is null for anything that does not ask for a container', () => {
    expect(parseRunCommand(['docker', 'ps'])).toBeNull();
    expect(parseRunCommand(['node', 'server.js'])).toBeNull();
    expect(parseRunCommand(['dockerd'])).toBeNull();
  });

  it('the engine CLI is not a launcher: it is the process the drill client talks to', () => {
    expect(isLauncher(['docker', 'run', '-i', 'img'])).toBe(false);
  });
});

describe('labelCommand', () => {
  it('inserts the label right after run and records the argv before and after', () => {
    const change = labelCommand(['docker', 'run', '-i', '--rm', 'img'], 'cd-1.0');
    expect(change).toEqual({
      changed: true,
      engine: 'docker',
      how: 'argv',
      label: 'dev.crash-drill.run=cd-1.0',
      before: ['docker', 'run', '-i', '--rm', 'img'],
      after: ['docker', 'run', '--label', 'dev.crash-drill.run=cd-1.0', '-i', '--rm', 'img'],
      endpoint: [],
    });
  });

  it('reaches behind env and inside sh -c', () => {
    expect(labelCommand(['env', 'X=1', 'podman', 'run', 'img'], 'cd-1.0')).toMatchObject({
      changed: true,
      engine: 'podman',
      after: ['env', 'X=1', 'podman', 'run', '--label', 'dev.crash-drill.run=cd-1.0', 'img'],
    });
    expect(labelCommand(['sh', '-c', 'cd /x && exec docker run -i img'], 'cd-1.0')).toMatchObject({
      changed: true,
      how: 'sh -c',
      after: ['sh', '-c', 'cd /x && exec docker run --label dev.crash-drill.run=cd-1.0 -i img'],
    });
  });

  it('leaves other commands alone, and says why', () => {
    expect(labelCommand(['npx', '-y', 'some-server'], 'cd-1.0')).toEqual({
      changed: false,
      reason: 'no docker or podman run in the subject command',
      before: ['npx', '-y', 'some-server'],
    });
    expect(labelCommand(['docker', 'exec', '-i', 'c', 'srv'], 'cd-1.0')).toMatchObject({
      changed: false,
      reason: expect.stringContaining('does not start a container'),
    });
    expect(labelCommand(['sh', '-c', 'echo docker run is great'], 'cd-1.0')).toMatchObject({ changed: false });
  });
});
