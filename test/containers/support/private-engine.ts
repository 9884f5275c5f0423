/**
 * A private Docker engine for one test file, started the way it was measured to work: Debian's
 * `docker.io` dockerd with no networking, its own cgroup parent, socket, data and exec roots in
 * one short temp folder (a unix socket path must stay under 108 bytes). It installs nothing:
 * when dockerd is missing or we are not root, `startPrivateEngine` returns the reason to skip.
 *
 * Teardown leaves nothing: every container is removed, dockerd gets SIGTERM and is waited for
 * (SIGKILL after the deadline), whatever is still mounted under the folder is unmounted, the
 * cgroup parent is removed in every hierarchy, and the folder goes.
 */
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, closeSync, readdirSync, readFileSync, rmSync, statSync, rmdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { identify, type ProcIdentity } from '../../../harness/observe/index.js';
import { signalIdentity } from '../../../harness/containment/signal.js';

export type PrivateEngine = {
  dir: string;
  socket: string;
  /** `unix://<socket>`: give it as DOCKER_HOST to everything that talks to this engine. */
  host: string;
  env: NodeJS.ProcessEnv;
  cgroupParent: string;
  dockerd: ProcIdentity;
  /** Runs the docker CLI against this engine; resolves with stdout. */
  docker(args: string[], opts?: { timeoutMs?: number }): Promise<string>;
  stop(): Promise<void>;
};

export type EngineStart = { engine: PrivateEngine; skip: null } | { engine: null; skip: string };

const READY_DEADLINE_MS = 20_000;
const STOP_DEADLINE_MS = 15_000;

function which(name: string): string | null {
  for (const dir of [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/sbin']) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** Why a private engine cannot be started here, or null when it can. */
export function engineUnavailable(): string | null {
  if (process.platform !== 'linux') return 'container tests need Linux';
  if (process.getuid?.() !== 0) return 'a private dockerd needs root (the container tests run as root in CI)';
  if (!which('dockerd')) return 'dockerd is not installed (Debian: apt-get install docker.io)';
  if (!which('docker')) return 'the docker CLI is not installed';
  return null;
}

function ping(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ socketPath: socket, path: '/_ping', timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

/** Waits for the engine to answer /_ping, or for dockerd to exit, whichever comes first. */
async function waitReady(socket: string, child: ChildProcess, deadlineMs: number): Promise<string | null> {
  let exited: string | null = null;
  child.once('exit', (code, signal) => (exited = `dockerd exited (code ${code}, signal ${signal}) before it was ready`));
  const end = Date.now() + deadlineMs;
  while (Date.now() < end) {
    if (exited) return exited;
    if (existsSync(socket) && (await ping(socket))) return null;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return `dockerd did not answer on ${socket} within ${deadlineMs} ms`;
}

export async function startPrivateEngine(): Promise<EngineStart> {
  const why = engineUnavailable();
  if (why) return { engine: null, skip: why };
  const dir = mkdtempSync('/tmp/cdk-');
  const socket = join(dir, 'docker.sock');
  const cgroupParent = `crash-drill-${dir.slice(-6)}`;
  const log = openSync(join(dir, 'dockerd.log'), 'a');
  const child = spawn(
    which('dockerd')!,
    [
      '--storage-driver=overlay2',
      '--iptables=false',
      '--ip6tables=false',
      '--ip-masq=false',
      '--bridge=none',
      `--cgroup-parent=/${cgroupParent}`,
      '--shutdown-timeout=2',
      `--host=unix://${socket}`,
      `--data-root=${join(dir, 'data')}`,
      `--exec-root=${join(dir, 'exec')}`,
      `--pidfile=${join(dir, 'docker.pid')}`,
    ],
    { stdio: ['ignore', log, log] },
  );
  closeSync(log);
  const host = `unix://${socket}`;
  const env = { ...process.env, DOCKER_HOST: host };
  const dockerd = child.pid !== undefined ? identify(child.pid) : null;
  const engine: PrivateEngine = {
    dir,
    socket,
    host,
    env,
    cgroupParent,
    dockerd: dockerd ?? { pid: -1, startTime: -1 },
    docker: (args, opts) => runDocker(args, env, opts?.timeoutMs ?? 30_000),
    stop: () => stopEngine(engine, child),
  };
  const failure = dockerd ? await waitReady(socket, child, READY_DEADLINE_MS) : 'dockerd did not start';
  if (failure) {
    const tail = safeRead(join(dir, 'dockerd.log')).slice(-1500);
    await engine.stop();
    return { engine: null, skip: `${failure}\n\n${tail}` };
  }
  return { engine, skip: null };
}

function runDocker(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('docker', args, { env, timeout: timeoutMs, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`docker ${args.join(' ')}: ${error.message}\n\n${stderr}`));
      else resolve(stdout);
    });
  });
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

async function stopEngine(engine: PrivateEngine, child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    try {
      const ids = (await engine.docker(['ps', '-aq'], { timeoutMs: 10_000 })).split('\n').filter(Boolean);
      if (ids.length > 0) await engine.docker(['rm', '-f', ...ids], { timeoutMs: 20_000 });
    } catch {
      // the engine is not answering: stopping it below ends its containers' shims with it
    }
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    signalIdentity(engine.dockerd, 'SIGTERM');
    const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), STOP_DEADLINE_MS).unref());
    if ((await Promise.race([exited, timer])) === 'late') {
      signalIdentity(engine.dockerd, 'SIGKILL');
      await exited;
    }
  }
  await endLeftovers(engine.dir);
  unmountUnder(engine.dir);
  removeCgroups(engine.cgroupParent);
  rmSync(engine.dir, { recursive: true, force: true });
}

/** containerd and shims started for this engine carry its folder in their argv. */
async function endLeftovers(dir: string): Promise<void> {
  const left: ProcIdentity[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const argv = safeRead(`/proc/${name}/cmdline`);
    if (!argv.includes(dir)) continue;
    const id = identify(Number(name));
    if (id) left.push(id);
  }
  for (const id of left) signalIdentity(id, 'SIGKILL');
  const end = Date.now() + 5000;
  while (left.some((id) => identify(id.pid)?.startTime === id.startTime) && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Mount points under dir, deepest first (mountinfo field 5, octal-escaped). */
export function mountsUnder(dir: string): string[] {
  return safeRead('/proc/self/mountinfo')
    .split('\n')
    .map((line) => line.split(' ')[4])
    .filter((point): point is string => point !== undefined)
    .map((point) => point.replace(/\\([0-7]{3})/g, (_, oct: string) => String.fromCharCode(Number.parseInt(oct, 8))))
    .filter((point) => point === dir || point.startsWith(`${dir}/`))
    .sort((a, b) => b.length - a.length);
}

function unmountUnder(dir: string): void {
  for (const point of mountsUnder(dir)) spawnSync('umount', ['-l', point], { stdio: 'ignore' });
}

/** Every copy of the cgroup parent: one per v1 hierarchy, or one in the v2 tree. */
export function cgroupDirs(name: string): string[] {
  const roots = ['/sys/fs/cgroup', ...safeList('/sys/fs/cgroup').map((h) => join('/sys/fs/cgroup', h))];
  return roots.map((root) => join(root, name)).filter((path) => existsSync(path));
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => statSync(join(dir, name)).isDirectory());
  } catch {
    return [];
  }
}

function removeCgroups(name: string): void {
  for (const path of cgroupDirs(name)) removeTree(path);
}

function removeTree(path: string): void {
  for (const child of safeList(path)) removeTree(join(path, child));
  try {
    rmdirSync(path);
  } catch {
    // still populated (a process the engine could not end): left for the leftover check to report
  }
}
