/**
 * A Claude Desktop entry of the docker form (`docker run -i --rm <image> ...`, the engine given
 * as DOCKER_HOST in the entry's env) named on real processes: a client spawns the entry exactly
 * as it says, on stdio pipes, the server inside the container says it is up, the client is
 * SIGKILLed, and a plain `crash-drill orphans --json` names the docker CLI left behind by its
 * entry, with the docker launcher's reason. The same command with one other arg, and an entry
 * with another image, are not named. Nothing has "mcp" in its command line. The containers are
 * removed by their label, the docker CLIs end with them, and nothing of the test is left.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkExit, identify, pollExit, type ProcIdentity } from '../../harness/observe/index.js';
import type { OrphanEntry, OrphanReport } from '../../harness/live-machine/find-orphans.js';
import { FIXTURES, fixtureHome, type FixtureHome } from '../mcp-clients/fixture-home.js';
import type { CliRun } from '../support/cli.js';
import { fixtureCli, killClient as killLaunched, launchClient } from '../support/clients.js';
import { engineSuite } from './support/with-engine.js';
import { signalIdentity } from '../../harness/containment/signal.js';

const suite = engineSuite('test/containers/client-config-docker.e2e.test.ts');

const MARK_NAME = 'DOCKER_ENTRY_TEST_MARK';
const mark = randomUUID();
/** Every container of this file carries it: cleanup removes them by it. */
const LABEL = `dev.crash-drill.test=docker-entry-${mark.slice(0, 8)}`;
const OTHER_IMAGE = 'crash-drill-node:other';
const HOW = 'command and args match exactly (the docker CLI; the server runs in its container)';

interface Launched {
  client: ProcIdentity;
  /** The docker CLI: the process the entry's command starts. */
  cli: ProcIdentity;
  child: ChildProcess;
}

let fx: FixtureHome;
const launched: Launched[] = [];

/** The entry's args: the fixture servers folder mounted read-only, plain-server.js run by the image's node. */
function dockerArgs(image: string, root: string): string[] {
  return [
    'run',
    '-i',
    '--rm',
    '--init',
    '--pull',
    'never',
    '--label',
    LABEL,
    '-v',
    `${fx.servers}:/srv:ro`,
    image,
    '/usr/bin/node',
    '/srv/server.js',
    '--root',
    root,
  ];
}

/** A client spawning `docker args` with the entry's env added, as Claude Desktop does; resolves once the server in the container is up. */
async function launch(args: string[], entryEnv: Record<string, string>): Promise<Launched> {
  const spec = { command: 'docker', args, cwd: fx.root, env: entryEnv };
  const env: NodeJS.ProcessEnv = { ...process.env, [MARK_NAME]: mark };
  delete env.CRASH_DRILL_RUN;
  delete env.DOCKER_HOST;
  const { child, client, server } = await launchClient(join(FIXTURES, 'config-client.mjs'), [JSON.stringify(spec)], {
    env,
    what: `docker ${args.join(' ')}`,
    timeoutMs: 60_000,
  });
  const l = { client, cli: server, child };
  launched.push(l);
  return l;
}

/** SIGKILL to the client by its identity (pid and start time), and its exit awaited (test/support/clients.ts). */
async function killClient(l: Launched): Promise<void> {
  expect(await killLaunched(l)).toBe('sent');
}

/** Not exited (a zombie has). */
const alive = (id: ProcIdentity): boolean => checkExit(id) === null;

/** Live processes carrying this file's marker (the clients and their docker CLIs). */
function marked(): ProcIdentity[] {
  const out: ProcIdentity[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/environ`, 'utf8').includes(`${MARK_NAME}=${mark}`)) continue;
      const state = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.[0];
      const id = identify(Number(name));
      if (id && state !== 'Z') out.push(id);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

async function containers(): Promise<string[]> {
  return (await suite.engine().docker(['ps', '-aq', '--filter', `label=${LABEL}`])).split('\n').filter(Boolean);
}

/** `docker rm -f` of this file's containers, found by their label. */
async function removeContainers(): Promise<void> {
  const ids = await containers();
  if (ids.length > 0) await suite.engine().docker(['rm', '-f', ...ids]);
}

/**
 * Whatever a failed test left: the clients, the containers (their docker CLIs then end on their
 * own: the attach stream closes), and anything of ours still alive after that gets SIGKILL by
 * identity.
 */
async function removeAll(): Promise<void> {
  for (const l of launched) if (alive(l.client)) await killClient(l);
  if (!suite.skip) await removeContainers();
  await Promise.all(launched.map((l) => pollExit(l.cli, { timeoutMs: 15_000 })));
  const left = marked();
  for (const id of left) signalIdentity(id, 'SIGKILL');
  await Promise.all(left.map((id) => pollExit(id, { timeoutMs: 5000 })));
}

/** The real CLI with HOME and XDG_CONFIG_HOME on the fixture home, as the client-configs e2e runs it. */
async function cli(args: string[]): Promise<CliRun> {
  const run = await fixtureCli(fx, args);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(1);
  return run;
}

const find = (report: OrphanReport, l: Launched): OrphanEntry | undefined => report.entries.find((e) => e.pid === l.cli.pid && e.startTime === l.cli.startTime);

const orphans = async (extra: string[] = []): Promise<OrphanReport> => JSON.parse((await cli(['orphans', '--json', ...extra])).stdout) as OrphanReport;

describe('a docker entry of a client configuration, on real processes', () => {
  let named: Launched;
  let nearMiss: Launched;

  beforeAll(async () => {
    if (suite.skip) return;
    const engine = suite.engine();
    fx = fixtureHome();
    await engine.docker(['tag', suite.image, OTHER_IMAGE]);
    // Claude Desktop's file of the fixture home, with two docker entries: `files`, and one like it with another image.
    const file = join(fx.xdg, 'Claude', 'claude_desktop_config.json');
    const config = JSON.parse(readFileSync(file, 'utf8')) as { mcpServers: Record<string, unknown> };
    const entryEnv = { DOCKER_HOST: engine.host };
    config.mcpServers.files = { command: 'docker', args: dockerArgs(suite.image, '/data'), env: entryEnv };
    config.mcpServers['files-other-image'] = { command: 'docker', args: dockerArgs(OTHER_IMAGE, '/data'), env: entryEnv };
    writeFileSync(file, JSON.stringify(config, null, 2));
    // The entry as written, and the same command with its last arg changed (no entry says that).
    [named, nearMiss] = await Promise.all([launch(dockerArgs(suite.image, '/data'), entryEnv), launch(dockerArgs(suite.image, '/elsewhere'), entryEnv)]);
    await Promise.all([killClient(named), killClient(nearMiss)]);
  }, 120_000);

  afterAll(async () => {
    await removeAll();
    fx?.remove();
  }, 60_000);

  it('a plain `orphans --json` names the docker CLI by its entry, and not the one with another arg', async (ctx) => {
    if (suite.skip) return ctx.skip();
    expect((await containers()).length).toBe(2);
    const report = await orphans();
    const entry = find(report, named)!;
    expect(entry).toBeDefined();
    expect(entry.classification).toBe('client-gone');
    expect(entry.evidence).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^no live process holds the other end of socket:\[\d+\] \(its peer socket is closed\) \(its stdin\)$/),
        expect.stringMatching(/^no live process holds the other end of socket:\[\d+\] \(its peer socket is closed\) \(its stdout\)$/),
      ]),
    );
    expect(entry.configured.map((c) => [c.client, c.name, c.how, c.pid, c.envNames])).toEqual([
      ['claude-desktop', 'files', HOW, named.cli.pid, ['DOCKER_HOST']],
    ]);
    expect(entry.configured[0]!.file).toBe(join(fx.xdg, 'Claude', 'claude_desktop_config.json'));
    expect(entry.serverEvidence).toEqual([`${named.cli.pid}: command matches default pattern "docker run -i"`]);
    expect(entry.command.trimEnd()).toBe(['docker', ...dockerArgs(suite.image, '/data')].join(' '));
    expect(entry.command).not.toMatch(/mcp/i);
    // The docker CLI is the session: the server runs in its container, outside this process tree.
    expect(entry.chain.map((c) => [c.pid, c.launcher])).toEqual([[named.cli.pid, false]]);
    expect(entry.server.pid).toBe(named.cli.pid);

    // One arg off: still a `docker run -i` by pattern, but no entry names it.
    const other = find(report, nearMiss)!;
    expect(other).toBeDefined();
    expect(other.classification).toBe('client-gone');
    expect(other.configured).toEqual([]);
    expect(other.serverEvidence).toEqual([`${nearMiss.cli.pid}: command matches default pattern "docker run -i"`]);
    // A configured match ranks above a pattern-only one.
    expect(report.entries.indexOf(entry)).toBeLessThan(report.entries.indexOf(other));
  });

  it('the text names the entry, its file and env names; without the configurations the docker CLI is a pattern match only', async (ctx) => {
    if (suite.skip) return ctx.skip();
    const text = (await cli(['orphans'])).stdout.split('\n');
    const file = join(fx.xdg, 'Claude', 'claude_desktop_config.json');
    const block = (l: Launched): string[] => {
      const header = text.findIndex((line) => line.startsWith(`CLIENT-GONE  pid ${l.cli.pid} `));
      expect(header).toBeGreaterThanOrEqual(0);
      const next = text.findIndex((line, i) => i > header && /^[A-Z-]+ {2}pid /.test(line));
      return text.slice(header + 1, next < 0 ? undefined : next).filter((line) => line.startsWith('  configured: '));
    };
    expect(block(named)).toEqual([`  configured: claude-desktop: files (${HOW}), pid ${named.cli.pid}; ${file}; env names: DOCKER_HOST`]);
    expect(block(nearMiss)).toEqual(['  configured: no client configuration entry matches it; counted by a server pattern only']);
    const without = await orphans(['--no-client-configs']);
    expect(find(without, named)?.configured).toEqual([]);
    expect(find(without, named)?.serverEvidence).toEqual([`${named.cli.pid}: command matches default pattern "docker run -i"`]);
  });

  it('`docker rm -f` by the label ends both containers and, with them, both docker CLIs; nothing of the test is left', async (ctx) => {
    if (suite.skip) return ctx.skip();
    expect(alive(named.cli) && alive(nearMiss.cli)).toBe(true);
    await removeContainers();
    const exits = await Promise.all([named, nearMiss].map((l) => pollExit(l.cli, { timeoutMs: 15_000 })));
    expect(exits.map((e) => e !== null)).toEqual([true, true]);
    expect(await containers()).toEqual([]);
    expect(marked()).toEqual([]);
  });
});
