/**
 * One ground-truth trial: a client (not the harness's code) under a subreaper holder
 * (holder.py) starts a server and opens a session; then it stops the server and lives on
 * (`stop`) or is SIGKILLed (`crash`). After the grace, the holder lists what is still alive
 * below it, the client left out, and ends all of it.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export type Situation = 'stop' | 'crash';

export interface Survivor {
  pid: number;
  /** `child`: the process the client spawned; `helper`: spawn-helper's; `descendant`: any other. */
  role: 'child' | 'helper' | 'descendant';
  cmd: string[];
}

export interface TrialResult {
  survivors: Survivor[];
  /** How long the client's stop sequence took (stop situation). */
  stopMs: number | null;
  error: string | null;
}

export interface TrialSpec {
  holder: string[];
  client: string[];
  server: string[];
  situation: Situation;
  /** The wait after the stop sequence's end (stop) or the client's death (crash) before survivors are listed. */
  graceMs: number;
  /** And no earlier than this long after the stop or crash was sent, where a run's snapshot is (the survey's: exit deadline plus grace). */
  sinceLossMs?: number;
  /** The folder the client (and so the server) runs in: the survey's server folder; else this process's. */
  cwd?: string;
  /** Bounds on the client's reports: a missing one is an error, not a hang. */
  readyMs: number;
  stoppedMs: number;
  /** Aborted (survey --verify interrupted): the trial stops waiting, and the holder ends what it holds. */
  signal?: AbortSignal;
}

type Line = Record<string, unknown>;

export async function runTrial(spec: TrialSpec): Promise<TrialResult> {
  const holder = spawn(spec.holder[0], [...spec.holder.slice(1), ...spec.client, ...spec.server], { stdio: ['pipe', 'pipe', 'pipe'], cwd: spec.cwd });
  let stderr = '';
  holder.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const lines: Line[] = [];
  let wake: () => void = () => {};
  createInterface({ input: holder.stdout }).on('line', (text) => {
    try {
      lines.push(JSON.parse(text) as Line);
    } catch {
      return; // a server's stray stdout that reached the holder is not a report
    }
    wake();
  });
  // A holder that cannot start (its folder gone, no python3) is this trial's error, not the caller's crash.
  let spawnError: Error | null = null;
  // A write to a holder that never started or already ended: its reports (or their absence) say what happened.
  holder.stdin.on('error', () => {});
  holder.once('error', (error) => {
    spawnError = error;
    wake();
  });
  const closed = new Promise<void>((resolve) => {
    holder.once('close', () => resolve());
    holder.once('error', () => resolve());
  });
  // One signal serves every trial of a verify (hundreds): each removes its listener at its end.
  const onAbort = () => wake();
  spec.signal?.addEventListener('abort', onAbort, { once: true });
  const interrupted = () => spec.signal?.aborted === true;
  const next = async (key: string, ms: number, evenInterrupted = false): Promise<Line> => {
    const deadline = performance.now() + ms;
    for (;;) {
      const i = lines.findIndex((l) => key in l);
      if (i >= 0) return lines.splice(i, 1)[0];
      const left = deadline - performance.now();
      if (spawnError) throw new Error(`the holder could not start: ${(spawnError as Error).message}`);
      if (interrupted() && !evenInterrupted) throw new Error('interrupted');
      if (left <= 0 || holder.exitCode !== null) throw new Error(`no "${key}" report within ${ms} ms; holder stderr:\n${stderr}`);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, Math.min(left, 200));
      });
    }
  };
  const send = (command: string) => holder.stdin.write(`${command}\n`);
  let result: TrialResult;
  try {
    const ready = await next('ready', spec.readyMs);
    let stopMs: number | null = null;
    const lost = performance.now();
    send(spec.situation);
    if (spec.situation === 'stop') stopMs = Number((await next('stopped', spec.stoppedMs)).ms);
    // The grace is the measurement's definition ("alive after the sequence plus the grace"),
    // a deadline from configuration, not a wait for an event.
    const wait = Math.max(spec.graceMs, (spec.sinceLossMs ?? 0) - (performance.now() - lost));
    await new Promise<void>((resolve) => {
      wake = resolve;
      setTimeout(resolve, wait);
    });
    if (interrupted()) throw new Error('interrupted');
    send('survivors');
    const listed = (await next('survivors', 10_000)).survivors as { pid: number; cmd: string[] }[];
    const role = (pid: number): Survivor['role'] => (pid === ready.child ? 'child' : pid === ready.helper ? 'helper' : 'descendant');
    result = { survivors: listed.map((s) => ({ pid: s.pid, role: role(s.pid), cmd: s.cmd })), stopMs, error: null };
  } catch (error) {
    result = { survivors: [], stopMs: null, error: (error as Error).message };
  }
  send('cleanup');
  try {
    const clean = await next('clean', 15_000, true);
    if (clean.clean !== true) result.error ??= 'the holder could not end every process it holds';
  } catch (error) {
    result.error ??= (error as Error).message;
  }
  spec.signal?.removeEventListener('abort', onAbort);
  holder.stdin.end();
  await closed;
  return result;
}
