/**
 * The harness's line to the engine: the subject's CLI with the subject's endpoint (-H, --context,
 * DOCKER_HOST, CONTAINER_HOST); every call has a deadline, so a hung engine cannot hang a drill.
 */
import { execFile } from 'node:child_process';
import type { Engine } from './engine-cli.js';

export type EngineEvent = {
  id: string;
  action: string;
  /** Wall-clock ms. */
  wallMs: number;
  image: string;
  name: string;
  labels: Record<string, string>;
  exitCode: number | null;
};

export type Inspected = {
  id: string;
  name: string;
  image: string;
  command: string[];
  state: string;
  created: string;
  labels: Record<string, string>;
  pid: number | null;
  exitCode: number | null;
};

/** Environment variables that choose the engine endpoint, passed from the subject's environment. */
export const ENDPOINT_ENV = [
  'DOCKER_HOST',
  'DOCKER_CONTEXT',
  'DOCKER_CONFIG',
  'DOCKER_TLS_VERIFY',
  'DOCKER_CERT_PATH',
  'CONTAINER_HOST',
  'CONTAINER_CONNECTION',
];

export class EngineClient {
  constructor(
    readonly engine: Engine,
    readonly endpoint: string[],
    private readonly env: NodeJS.ProcessEnv,
    private readonly timeoutMs = 10_000,
  ) {}

  static forSubject(engine: Engine, endpoint: string[], subjectEnv: Record<string, string>): EngineClient {
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of ENDPOINT_ENV) if (subjectEnv[name] !== undefined) env[name] = subjectEnv[name];
    return new EngineClient(engine, endpoint, env);
  }

  run(args: string[], timeoutMs = this.timeoutMs): Promise<string> {
    return new Promise((resolve, reject) => {
      execFile(this.engine, [...this.endpoint, ...args], { env: this.env, timeout: timeoutMs, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`${this.engine} ${args[0]}: ${String(stderr).trim() || error.message}`));
        else resolve(stdout);
      });
    });
  }

  async version(): Promise<{ version: string | null; error: string | null }> {
    try {
      const out = await this.run(['version', '--format', '{{.Server.Version}}'], 5000);
      return { version: out.trim() || null, error: null };
    } catch (error) {
      return { version: null, error: (error as Error).message.split('\n')[0] };
    }
  }

  /** Ids of containers (all states) carrying a label (`key` or `key=value`). */
  async labelled(label: string): Promise<string[]> {
    const out = await this.run(['ps', '-a', '--no-trunc', '--filter', `label=${label}`, '--format', '{{.ID}}']);
    return out
      .split('\n')
      .map((s) => s.trim())
      .filter(Boolean);
  }

  /** The containers that still exist among ids (a removed one is left out). */
  async inspect(ids: string[]): Promise<Inspected[]> {
    const out: Inspected[] = [];
    for (const id of ids) {
      try {
        const text = await this.run(['container', 'inspect', '--format', '{{json .}}', id]);
        out.push(parseInspect(JSON.parse(text.trim().split('\n')[0])));
      } catch {
        // removed meanwhile (--rm)
      }
    }
    return out;
  }

  /** Container events between two wall-clock times (ms). */
  async events(sinceMs: number, untilMs: number): Promise<EngineEvent[]> {
    const sec = (ms: number) => (ms / 1000).toFixed(3);
    const out = await this.run(['events', '--since', sec(sinceMs), '--until', sec(untilMs), '--filter', 'type=container', '--format', '{{json .}}']);
    return out
      .split('\n')
      .filter((line) => line.trim().startsWith('{'))
      .flatMap((line) => {
        try {
          return [parseEvent(JSON.parse(line))];
        } catch {
          return [];
        }
      });
  }
}

type Json = Record<string, unknown>;

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function parseEvent(raw: Json): EngineEvent {
  const actor = (raw.Actor ?? {}) as Json;
  const attrs = { ...((actor.Attributes ?? raw.Attributes ?? {}) as Record<string, string>) };
  const id = str(actor.ID) || str(raw.id) || str(raw.ID);
  const action = str(raw.Action) || str(raw.status) || str(raw.Status);
  const nano = typeof raw.timeNano === 'number' ? raw.timeNano : null;
  const wallMs = nano !== null ? nano / 1e6 : typeof raw.time === 'number' ? raw.time * 1000 : Date.parse(str(raw.Time));
  const { image = '', name = '', exitCode, ...labels } = attrs;
  return { id, action, wallMs, image: image || str(raw.from), name, labels, exitCode: exitCode === undefined ? null : Number(exitCode) };
}

export function parseInspect(raw: Json): Inspected {
  const config = (raw.Config ?? {}) as Json;
  const state = (raw.State ?? {}) as Json;
  const pid = typeof state.Pid === 'number' && state.Pid > 0 ? state.Pid : null;
  return {
    id: str(raw.Id),
    name: str(raw.Name).replace(/^\//, ''),
    image: str(config.Image),
    command: [str(raw.Path), ...((raw.Args as string[] | undefined) ?? [])].filter(Boolean),
    state: str(state.Status),
    created: str(raw.Created),
    labels: (config.Labels as Record<string, string> | null) ?? {},
    pid,
    exitCode: typeof state.ExitCode === 'number' ? state.ExitCode : null,
  };
}
