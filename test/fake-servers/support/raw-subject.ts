/**
 * A subject spawned directly with pipes and driven with raw JSON-RPC lines: no SDK client, so
 * the test sees exactly what the server writes and controls exactly when its stdin closes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { monoNow } from '../../../harness/util/clock.js';
import { parseExitMark } from '../../../fake-servers/lib/exit-mark.js';

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** monoNow() when the test process saw the exit. */
  at: number;
}

interface JsonRpcResponse {
  id: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

export class RawSubject {
  readonly child: ChildProcess;
  readonly stdoutLines: string[] = [];
  stderrText = '';
  readonly exited: Promise<ExitInfo>;
  private nextId = 1;
  private partial = '';
  private readonly pending = new Map<number, { answer: (response: JsonRpcResponse) => void; fail: (err: Error) => void }>();

  constructor(command: string, args: string[], env: NodeJS.ProcessEnv) {
    this.child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => resolve({ code, signal, at: monoNow() }));
    });
    // Once the subject's pipes are closed no answer can come: a request still waiting fails now,
    // not at its timeout after the test has ended.
    this.child.once('close', () => {
      for (const { fail } of this.pending.values()) fail(new Error(`the subject exited before answering; stderr:\n${this.stderrText}`));
    });
    this.child.stdin?.on('error', () => {}); // EPIPE once the subject is gone is expected
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => this.onStdout(chunk));
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderrText += chunk;
    });
  }

  get pid(): number {
    if (this.child.pid === undefined) throw new Error('subject failed to start');
    return this.child.pid;
  }

  /** Lines on stdout that are not JSON-RPC 2.0 messages. */
  get nonJsonLines(): string[] {
    return this.stdoutLines.filter((line) => {
      try {
        return (JSON.parse(line) as { jsonrpc?: unknown }).jsonrpc !== '2.0';
      } catch {
        return true;
      }
    });
  }

  /** The monotonic time in the server's own exit mark, or null if it wrote none. */
  get exitMark(): number | null {
    for (const line of this.stderrText.split('\n')) {
      const value = parseExitMark(line);
      if (value !== null) return value;
    }
    return null;
  }

  send(message: Record<string, unknown>): void {
    this.child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  }

  request(method: string, params: Record<string, unknown> = {}, timeoutMs = 15_000): Promise<JsonRpcResponse> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`no answer to ${method} within ${timeoutMs} ms; stderr:\n${this.stderrText}`));
      }, timeoutMs);
      this.pending.set(id, {
        answer: (response) => {
          clearTimeout(timer);
          resolve(response);
        },
        fail: (err) => {
          clearTimeout(timer);
          this.pending.delete(id);
          reject(err);
        },
      });
      this.send({ id, method, params });
    });
  }

  async handshake(protocolVersion = '2025-06-18'): Promise<Record<string, unknown>> {
    const response = await this.request('initialize', {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: 'fake-servers-test', version: '0.0.0' },
    });
    if (!response.result) throw new Error(`initialize failed: ${JSON.stringify(response.error)}`);
    this.send({ method: 'notifications/initialized' });
    return response.result;
  }

  async listToolNames(): Promise<string[]> {
    const response = await this.request('tools/list');
    const tools = (response.result?.tools ?? []) as Array<{ name: string }>;
    return tools.map((tool) => tool.name);
  }

  /** Calls a tool and returns the text of its first content item. */
  async callTool(name: string, args: Record<string, unknown> = {}): Promise<string> {
    const response = await this.request('tools/call', { name, arguments: args });
    const content = (response.result?.content ?? []) as Array<{ text?: string }>;
    const text = content[0]?.text;
    if (text === undefined) throw new Error(`${name} gave no text: ${JSON.stringify(response)}`);
    return text;
  }

  /**
   * Calls a tool with a correlation id in `params._meta` (as the drill client does) and
   * returns the text of its first content item and whether it is a tool error.
   */
  async callToolFull(name: string, args: Record<string, unknown>, meta: Record<string, unknown> = {}): Promise<{ text: string; isError: boolean }> {
    const response = await this.request('tools/call', { name, arguments: args, _meta: meta });
    const result = response.result as { content?: Array<{ text?: string }>; isError?: boolean } | undefined;
    const text = result?.content?.[0]?.text;
    if (text === undefined) throw new Error(`${name} gave no text: ${JSON.stringify(response)}`);
    return { text, isError: result?.isError === true };
  }

  /** Calls spawn-helper and returns the helper's pid from the answer `helper <pid>`. */
  async spawnHelper(): Promise<number> {
    const text = await this.callTool('spawn-helper');
    const match = /^helper (\d+)$/.exec(text);
    if (!match) throw new Error(`unexpected spawn-helper answer: ${text}`);
    return Number(match[1]);
  }

  closeStdin(): number {
    this.child.stdin?.end();
    return monoNow();
  }

  /** The exit, or null if the subject is still running after `timeoutMs`. */
  async exitWithin(timeoutMs: number): Promise<ExitInfo | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), timeoutMs);
    });
    const result = await Promise.race([this.exited, timeout]);
    clearTimeout(timer);
    return result;
  }

  private onStdout(chunk: string): void {
    this.partial += chunk;
    let newline = this.partial.indexOf('\n');
    while (newline >= 0) {
      const line = this.partial.slice(0, newline);
      this.partial = this.partial.slice(newline + 1);
      if (line.length > 0) this.onLine(line);
      newline = this.partial.indexOf('\n');
    }
  }

  private onLine(line: string): void {
    this.stdoutLines.push(line);
    let message: JsonRpcResponse;
    try {
      message = JSON.parse(line) as JsonRpcResponse;
    } catch {
      return;
    }
    const waiting = this.pending.get(message.id);
    if (waiting) {
      this.pending.delete(message.id);
      waiting.answer(message);
    }
  }
}
