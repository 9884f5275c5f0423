/**
 * A drill's loopback-only network (`network: loopback`, docs/network.md): keeper.pl makes a network
 * namespace with only `lo` and relays the drill remote's ports into it (relay.ts); join.pl enters
 * it and execs the server. No pid namespace: the harness still sees the server in the host's /proc.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { identify, type ProcIdentity } from '../../observe/index.js';
import { packageRoot } from '../../util/paths.js';
import { UserError } from '../../util/errors.js';
import { findPerl, perlFile } from '../../util/perl.js';
import type { Socket } from 'node:net';
import { listenRelay, type RelayedConnection } from './relay.js';
import { whyRefused } from './refusal.js';

const DIR = join(packageRoot(), 'harness', 'drill', 'network');
export const KEEPER_SCRIPT = perlFile(join(DIR, 'keeper.pl'));
export const JOIN_SCRIPT = perlFile(join(DIR, 'join.pl'));

/** unshare(2) and setns(2) by Node's process.arch, for perl's syscall; an architecture not listed leaves it to syscall.ph. */
const SYSCALLS: Partial<Record<string, { unshare: number; setns: number }>> = {
  x64: { unshare: 272, setns: 308 },
  arm64: { unshare: 97, setns: 268 },
  riscv64: { unshare: 97, setns: 268 },
  loong64: { unshare: 97, setns: 268 },
  ia32: { unshare: 310, setns: 346 },
  arm: { unshare: 337, setns: 375 },
  s390x: { unshare: 303, setns: 339 },
  ppc64: { unshare: 282, setns: 350 },
};

/** How the namespace was made: `net` a plain network namespace (root), `user` one owned by a new user namespace. */
export type NamespaceKind = 'net' | 'user';

/** Why a loopback-only network could not be made here (the keeper's stage and errno, explained). */
export class NoLoopbackNetwork extends UserError {
  readonly code = 'CRASH_DRILL_NETWORK_UNAVAILABLE';
  constructor(readonly reason: string) {
    super(reason);
  }
}

export class LoopbackNetwork {
  private closed = false;

  constructor(
    readonly keeper: ProcIdentity,
    readonly kind: NamespaceKind,
    /** The host loopback ports relayed inside. */
    readonly ports: readonly number[],
    private readonly child: ReturnType<typeof spawn>,
    private readonly relays: readonly Server[],
    private readonly dir: string,
  ) {}

  /** The server's command, entering this namespace first (join.pl). */
  command(command: string, args: readonly string[]): [string, string[]] {
    const { pid, startTime } = this.keeper;
    const setns = String(SYSCALLS[process.arch]?.setns ?? '');
    return [findPerl()!, ['-e', JOIN_SCRIPT, setns, String(pid), String(startTime), this.kind === 'user' ? '1' : '0', '--', command, ...args]];
  }

  /** Ends the keeper (end of file on its stdin) and the relays, and waits for the keeper's exit. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const exited =
      this.child.exitCode !== null || this.child.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => this.child.once('exit', () => r()));
    this.child.stdin?.end();
    await Promise.all([exited, ...this.relays.map((s) => new Promise<void>((r) => s.close(() => r())))]);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * Makes a loopback-only network with `ports` relayed in at the same numbers; `drillId` names the
 * relay folder so a run's sentinel removes it if the harness dies. Throws NoLoopbackNetwork.
 */
export async function openLoopbackNetwork(
  drillId: string,
  ports: readonly number[],
  onConnection: (c: RelayedConnection & { keeperPid: number }, outbound: Socket) => void = () => {},
): Promise<LoopbackNetwork> {
  const perl = findPerl();
  if (perl === null)
    throw new NoLoopbackNetwork("perl is not on PATH, and the namespace keeper and the server's entry into it are perl (harness/drill/network/)");
  const dir = mkdtempSync(join(tmpdir(), `crash-drill-${drillId}-net-`));
  const relays: Server[] = [];
  // Set once the keeper is up; no connection can come before (the listeners inside are its).
  let keeperPid = 0;
  try {
    const pairs: string[] = [];
    for (const port of new Set(ports)) {
      const path = join(dir, String(port));
      // sockaddr_un holds 108 bytes with the NUL (unix(7)).
      if (Buffer.byteLength(path) > 107)
        throw new NoLoopbackNetwork(
          `the relay's unix socket path ${path} is longer than a unix socket address holds (107 bytes): set TMPDIR to a shorter folder`,
        );
      relays.push(await listenRelay(path, port, (c, outbound) => onConnection({ ...c, keeperPid }, outbound)));
      pairs.push(String(port), path);
    }
    const unshare = String(SYSCALLS[process.arch]?.unshare ?? '');
    // detached: a terminal's Ctrl-C must not end it before the drill is contained; end of file on stdin does.
    const child = spawn(perl, ['-e', KEEPER_SCRIPT, unshare, '--', ...pairs], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const line = await firstLine(child);
    const ready = /^ready (net|user)$/.exec(line);
    const keeper = ready && child.pid !== undefined ? identify(child.pid) : null;
    if (!ready || !keeper) {
      child.stdin?.end();
      throw new NoLoopbackNetwork(whyRefused(line));
    }
    keeperPid = keeper.pid;
    return new LoopbackNetwork(keeper, ready[1] as NamespaceKind, [...new Set(ports)], child, relays, dir);
  } catch (error) {
    await Promise.all(relays.map((s) => new Promise<void>((r) => s.close(() => r()))));
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** The keeper's report line, or what its exit and stderr say when it wrote none. */
function firstLine(child: ReturnType<typeof spawn>): Promise<string> {
  return new Promise((resolve) => {
    let out = '';
    let err = '';
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.once('error', (e) => resolve(`spawn-error ${e.message}`));
    // 'close', not 'exit': a refusal's line may still be in the pipe when the exit is reported.
    child.once('close', (code, signal) => resolve(`exit ${code ?? signal} ${err.trim()}`));
  });
}

/** Whether a loopback-only network can be made here: null when it can, else why not. Makes one and ends it. */
export async function loopbackUnavailable(): Promise<string | null> {
  try {
    await (await openLoopbackNetwork(`probe-${process.pid}`, [])).close();
    return null;
  } catch (error) {
    if (error instanceof NoLoopbackNetwork) return error.reason;
    throw error;
  }
}
