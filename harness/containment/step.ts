/** One containment step as data; describeStep() is the only place it becomes text. Types only, so checks and reporters can import it. */
import type { ExitObservation } from '../observe/index.js';
import type { SignalOutcome } from './signal.js';

/** The container engines (harness/containers/engine-cli.ts tells which one a command runs). */
export type Engine = 'docker' | 'podman';

/** A process, by identity: a signal re-checks the start time first (signal.ts). */
export type ProcessTarget = { pid: number; startTime: number };

/** A container, by identity: its id and the engine's creation time (a reused name is another container). */
export type ContainerTarget = { engine: Engine; id: string; name: string; created: string };

export type ContainmentSignal = 'SIGTERM' | 'SIGKILL' | 'SIGCONT';

export type EngineAction = 'stop' | 'kill' | 'rm';

/** How `crash-drill contain` ended (harness/live-machine/contain.ts). */
export type ContainOutcome = 'contained' | 'forced' | 'survived' | 'refused' | 'stopped';

/** What a revocation or a probe of `contain` came to (harness/containment/probe.ts). */
export type ProbeResult = 'ok' | 'failed' | 'denied' | 'allowed' | 'error';

/** A step without its time: what the code records. Every step has a `kind` and a `result`. */
export type StepBody =
  /** A signal the harness sent by identity; `proof`: why `contain` took the process to be of the run (harness/containment/members.ts). */
  | {
      kind: 'signal';
      target: ProcessTarget;
      signal: ContainmentSignal;
      result: SignalOutcome /** Why a SIGCONT was sent. */;
      reason?: 'stopped';
      proof?: string;
    }
  /** The drill cgroup's cgroup.kill, the last resort. */
  | { kind: 'cgroup.kill'; target: ProcessTarget; result: 'sent' | 'unavailable' }
  /** The exit the harness saw (`how`: a zombie with its wait status, or gone). */
  | { kind: 'exited'; target: ProcessTarget; how: ExitObservation['how']; code: number | null; signal: string | null }
  /** An engine command: `sent` as it starts (with its arguments), then `done`, `failed` (with the engine's first line) or `gone`. */
  | { kind: 'engine'; target: ContainerTarget; command: EngineAction; args?: string[]; result: 'sent' | 'done' | 'failed' | 'gone'; reason?: string }
  /** The engine's inspect of the container: gone before containment, another container under the id, its state, or removed by `--rm`. */
  | { kind: 'inspect'; target: ContainerTarget; result: 'gone' | 'removed' }
  | { kind: 'inspect'; target: ContainerTarget; result: 'mismatch'; created: string }
  | { kind: 'inspect'; target: ContainerTarget; result: 'seen'; state: string; exitCode: number | null }
  /** `contain`: the snapshot taken before anything else. */
  | { kind: 'snapshot'; target: ProcessTarget; result: 'taken' }
  /** `contain`: a revocation of the process's authority, or a probe that it is gone. */
  | { kind: 'revoke' | 'probe'; target: ProcessTarget; what: string; result: ProbeResult; detail: string }
  /** `contain --force`: the probe was still allowed, and containment went on. */
  | { kind: 'probe-overridden'; target: ProcessTarget; result: 'forced' }
  /** `contain`: the wait after SIGTERM, and how many members ended in it. */
  | { kind: 'wait'; target: ProcessTarget; waitMs: number; result: 'waited'; ended: number; of: number }
  /** `contain`: the members re-identified after the wait that are still there. */
  | { kind: 're-identify'; target: ProcessTarget; result: 'done'; left: number[] }
  /** `contain`: the outcome (refused before a snapshot has no start time). */
  | { kind: 'outcome'; target: ProcessTarget | { pid: number; startTime: null }; result: ContainOutcome; reason: string };

/** A step without its time and target: what a recorder that knows its target is given. */
export type UntargetedStep = StepBody extends infer S ? (S extends StepBody ? Omit<S, 'target'> : never) : never;

/** One step, with the monotonic time (ms, harness/util/clock.ts) it happened. */
export type ContainmentStep = StepBody & { t: number };

export type StepOf<K extends ContainmentStep['kind']> = Extract<ContainmentStep, { kind: K }>;

/** `docker stop --time 1`: the command an engine step ran. */
export function engineCommandLine(step: Extract<StepBody, { kind: 'engine' }>): string {
  return [step.target.engine, step.command, ...(step.args ?? [])].join(' ');
}

/** The step as one line: "SIGTERM 812 (a descendant of 800): sent", "docker stop --time 1: sent". */
export function describeStep(step: ContainmentStep | StepBody): string {
  switch (step.kind) {
    case 'signal': {
      // `contain` names the member and why it is of the run; a drill's record names its process itself.
      const why = step.reason === 'stopped' ? 'it was stopped' : step.proof;
      const who = step.proof !== undefined ? ` ${step.target.pid} (${why})` : why !== undefined ? ` (${why})` : '';
      return `${step.signal}${who}: ${step.result}`;
    }
    case 'cgroup.kill':
      return `cgroup.kill: ${step.result}`;
    case 'exited': {
      const status = step.signal !== null ? `, signal ${step.signal}` : step.code !== null ? `, code ${step.code}` : '';
      return `exited (${step.how}${status})`;
    }
    case 'engine': {
      const line = step.result === 'sent' ? engineCommandLine(step) : `${step.target.engine} ${step.command}`;
      const result = step.result === 'gone' ? 'gone already' : step.result;
      return `${line}: ${result}${step.reason !== undefined ? `: ${step.reason}` : ''}`;
    }
    case 'inspect':
      switch (step.result) {
        case 'gone':
          return 'inspect: gone';
        case 'removed':
          return 'removed by the engine (--rm)';
        case 'mismatch':
          return `inspect: created ${step.created}, not ${step.target.created}: left alone`;
        case 'seen':
          return `state ${step.state}, exit code ${step.exitCode}`;
      }
      break;
    case 'snapshot':
      return `snapshot of ${step.target.pid} (start ${step.target.startTime})`;
    case 'revoke':
    case 'probe':
      return `${step.what}: ${step.result} (${step.detail})`;
    case 'probe-overridden':
      return 'the probe was still allowed; going on because of --force';
    case 'wait':
      return `waited up to ${step.waitMs} ms: ${step.ended} of ${step.of} ended`;
    case 're-identify':
      return `re-identified: ${step.left.length === 0 ? 'nothing of the run is left' : `still there: ${step.left.join(', ')}`}`;
    case 'outcome':
      return `${step.result}: ${step.reason}`;
  }
  return '';
}
