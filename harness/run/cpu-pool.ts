/**
 * The CPU slots a run's scheduler draws on (scheduler.ts). A run has a pool of its own, the cores;
 * runs that share the machine share one: the survey's servers drilled at once, each in its own
 * worker process, draw on the survey's pool through a socket (CpuPoolServer, cpuPoolClient), so a
 * server whose drills all wait leaves its slots to the other instead of to no one.
 *
 * A slot is taken to admit a drill (`tryTake`, never more than the pool holds), taken whatever the
 * count when a drill enters a CPU phase it is already in (`force`: an exit or a containment never
 * waits), and given back when the drill leaves its CPU phases.
 */
import { createServer, type Server, type Socket, connect } from 'node:net';
import { pipeLines } from '../util/lines.js';

export interface CpuPool {
  /** Takes a slot if one is free here and now. */
  tryTake(): boolean;
  /** Takes a slot, free or not: a phase that has already begun never waits. */
  force(): void;
  /** Gives a slot back. */
  give(): void;
  /** Calls `listener` once, when a slot may have come free (after a tryTake that failed). */
  wake(listener: () => void): void;
}

/** A pool in this process: `size` slots. */
export class LocalCpuPool implements CpuPool {
  private used = 0;
  private listeners: Array<() => void> = [];

  /** `taken`: slots already held when the pool takes over (a worker whose survey went). */
  constructor(
    readonly size: number,
    taken = 0,
  ) {
    this.used = taken;
  }

  tryTake(): boolean {
    if (this.used >= this.size) return false;
    this.used++;
    return true;
  }

  force(): void {
    this.used++;
  }

  give(): void {
    this.used--;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }

  wake(listener: () => void): void {
    if (!this.listeners.includes(listener)) this.listeners.push(listener);
  }

  /** Slots taken now (for tests and the bench). */
  get taken(): number {
    return this.used;
  }
}

/** One message a line: want a slot, take one regardless, give one back (client to server); a slot granted (server to client). */
type Message = 'want' | 'take' | 'give' | 'grant';

const lines = (socket: Socket, on: (message: Message) => void): void => pipeLines(socket, (line) => on(line as Message));

/**
 * The shared pool, in the process that starts the workers: `size` slots, granted first come first
 * served. A worker's slots come back when its socket closes (it ended, however it ended).
 */
export class CpuPoolServer {
  private used = 0;
  private readonly held = new Map<Socket, number>();
  private readonly wanting: Socket[] = [];
  private readonly server: Server;
  /** Most slots taken at once (for tests and the bench). */
  peak = 0;
  private wantListeners: Array<() => void> = [];

  private constructor(
    readonly size: number,
    readonly path: string,
  ) {
    this.server = createServer((socket) => this.serve(socket));
  }

  /** Listens on the Unix socket `path` (in a folder only this user may enter). */
  static async listen(size: number, path: string): Promise<CpuPoolServer> {
    const pool = new CpuPoolServer(size, path);
    await new Promise<void>((resolve, reject) => {
      pool.server.once('error', reject);
      pool.server.listen(path, () => resolve());
    });
    return pool;
  }

  private serve(socket: Socket): void {
    this.held.set(socket, 0);
    lines(socket, (message) => {
      if (message === 'want') {
        this.wanting.push(socket);
        this.grant();
        const listeners = this.wantListeners;
        this.wantListeners = [];
        for (const listener of listeners) listener();
      } else if (message === 'take') this.count(socket, 1);
      else if (message === 'give') {
        this.count(socket, -1);
        this.grant();
      }
    });
    const gone = () => {
      if (!this.held.has(socket)) return;
      this.used -= this.held.get(socket) ?? 0;
      this.held.delete(socket);
      for (let i = this.wanting.indexOf(socket); i >= 0; i = this.wanting.indexOf(socket)) this.wanting.splice(i, 1);
      this.grant();
    };
    socket.on('close', gone);
    socket.on('error', gone);
  }

  /** Resolves once a worker's next want has come (and been granted, or queued): for tests. */
  nextWant(): Promise<void> {
    return new Promise((resolve) => this.wantListeners.push(resolve));
  }

  /** Wants queued for want of a free slot. */
  get waiting(): number {
    return this.wanting.length;
  }

  private count(socket: Socket, by: number): void {
    this.used += by;
    this.held.set(socket, (this.held.get(socket) ?? 0) + by);
    this.peak = Math.max(this.peak, this.used);
  }

  private grant(): void {
    while (this.used < this.size && this.wanting.length > 0) {
      const socket = this.wanting.shift()!;
      if (!this.held.has(socket) || socket.destroyed) continue;
      this.count(socket, 1);
      socket.write('grant\n');
    }
  }

  async close(): Promise<void> {
    for (const socket of this.held.keys()) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * A worker's side of the shared pool: a slot it was granted and has not used yet is `spare`, taken
 * by the next tryTake; one nobody took at once goes back, so no worker sits on a slot.
 */
export async function cpuPoolClient(path: string): Promise<CpuPool & { close(): void; closed: Promise<void> }> {
  const socket = await new Promise<Socket>((resolve, reject) => {
    const s = connect(path, () => resolve(s));
    s.once('error', reject);
  });
  // A drill's server never inherits it: Node's sockets are close-on-exec. It keeps the worker
  // alive while a slot is awaited; the worker closes it when done.
  let spare = 0;
  let asked = false;
  // The slots this worker holds now, in the survey's count.
  let held = 0;
  let listeners: Array<() => void> = [];
  // The survey gone (its socket closed): the worker goes on with one slot of its own, as with no pool to share.
  let alone: LocalCpuPool | null = null;
  const send = (message: Message) => {
    if (!socket.destroyed) socket.write(`${message}\n`);
  };
  let ended = () => {};
  const closed = new Promise<void>((resolve) => (ended = resolve));
  socket.on('error', () => undefined);
  socket.on('close', () => {
    alone = new LocalCpuPool(1, held);
    ended();
    const woken = listeners;
    listeners = [];
    for (const listener of woken) listener();
  });
  lines(socket, (message) => {
    if (message !== 'grant') return;
    spare++;
    asked = false;
    const woken = listeners;
    listeners = [];
    for (const listener of woken) listener();
    while (spare > 0) {
      spare--;
      send('give');
    }
  });
  return {
    tryTake() {
      if (alone) return alone.tryTake();
      if (spare > 0) {
        spare--;
        held++;
        return true;
      }
      if (!asked) {
        asked = true;
        send('want');
      }
      return false;
    },
    force() {
      if (alone) return alone.force();
      held++;
      send('take');
    },
    give() {
      if (alone) return alone.give();
      held--;
      send('give');
    },
    wake(listener) {
      if (alone) alone.wake(listener);
      else if (!listeners.includes(listener)) listeners.push(listener);
    },
    close: () => socket.destroy(),
    /** Resolves once the socket has closed: from then on the worker counts its own one slot. */
    closed,
  };
}

/** Waits for a slot of `pool` and takes it: CPU work outside a run's drills (the survey's listing of a server's tools). */
export function takeSlot(pool: CpuPool): Promise<void> {
  return new Promise((resolve) => {
    const attempt = () => {
      if (pool.tryTake()) resolve();
      else pool.wake(attempt);
    };
    attempt();
  });
}
