/**
 * Revokes a process's authority (`--revoke-cmd`/`--revoke-url`) and proves it: the probe must be
 * denied (non-zero exit; 401 or 403). Records never hold the command or a URL's query (tokens):
 * a command is named by its SHA-256.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';

export interface ProbeOutcome {
  what: string;
  /** 'ok' for a revoke that worked, 'denied' / 'allowed' for a probe, 'error' when it could not run. */
  result: 'ok' | 'failed' | 'denied' | 'allowed' | 'error';
  detail: string;
}

export function describeCommand(command: string): string {
  return `sh -c <command of ${command.length} chars, sha256 ${createHash('sha256').update(command, 'utf8').digest('hex').slice(0, 16)}>`;
}

export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}${u.search ? '?[redacted]' : ''}`;
  } catch {
    return '<not a URL>';
  }
}

/** Runs `sh -c command` with the target's identity in its environment; resolves to its exit code. */
export function runShellCommand(command: string, env: Record<string, string>, timeoutMs: number): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { stdio: 'ignore', env: { ...process.env, ...env } });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', () => resolve(null));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

export async function requestStatus(url: string, method: 'GET' | 'POST', body: unknown, timeoutMs: number): Promise<number | string> {
  try {
    const res = await fetch(url, {
      method,
      headers: body === undefined ? undefined : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.arrayBuffer();
    return res.status;
  } catch (error) {
    return (error as Error).message;
  }
}

export async function revoke(opts: { cmd?: string; url?: string; env: Record<string, string>; timeoutMs: number }): Promise<ProbeOutcome[]> {
  const out: ProbeOutcome[] = [];
  if (opts.cmd) {
    const code = await runShellCommand(opts.cmd, opts.env, opts.timeoutMs);
    out.push({
      what: `revoke ${describeCommand(opts.cmd)}`,
      result: code === 0 ? 'ok' : 'failed',
      detail: `exit code ${code ?? 'none (could not run or timed out)'}`,
    });
  }
  if (opts.url) {
    const status = await requestStatus(opts.url, 'POST', opts.env, opts.timeoutMs);
    const ok = typeof status === 'number' && status >= 200 && status < 300;
    out.push({
      what: `revoke POST ${describeUrl(opts.url)}`,
      result: ok ? 'ok' : 'failed',
      detail: typeof status === 'number' ? `status ${status}` : `no answer: ${status}`,
    });
  }
  return out;
}

export async function probe(opts: { cmd?: string; url?: string; env: Record<string, string>; timeoutMs: number }): Promise<ProbeOutcome[]> {
  const out: ProbeOutcome[] = [];
  if (opts.cmd) {
    const code = await runShellCommand(opts.cmd, opts.env, opts.timeoutMs);
    out.push({
      what: `probe ${describeCommand(opts.cmd)}`,
      result: code === null ? 'error' : code === 0 ? 'allowed' : 'denied',
      detail: `exit code ${code ?? 'none'}`,
    });
  }
  if (opts.url) {
    const status = await requestStatus(opts.url, 'GET', undefined, opts.timeoutMs);
    const result = typeof status !== 'number' ? 'error' : status === 401 || status === 403 ? 'denied' : status >= 200 && status < 300 ? 'allowed' : 'error';
    out.push({ what: `probe GET ${describeUrl(opts.url)}`, result, detail: typeof status === 'number' ? `status ${status}` : `no answer: ${status}` });
  }
  return out;
}
