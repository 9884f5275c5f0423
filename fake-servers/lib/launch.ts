/**
 * The npm launcher of a native server: starts the real server with all three stdio inherited
 * (so the client's pipes reach it directly) and forwards the given signals, then exits with
 * the real server's status. Published ones differ only in which signals they forward:
 * kubernetes-mcp-server 0.0.67 `bin/index.js` forwards SIGTERM, SIGINT and SIGHUP;
 * @falconer/mcp 0.2.1 `bin/falconer-mcp` runs `execFileSync(binary, args, { stdio: 'inherit' })`
 * with no handler at all, so a signal to it ends it alone.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

/**
 * The real server is another fake, FAKE_LAUNCH (default ignores-eof): one that exits on EOF is
 * saved by the EOF that reaches it through any launcher, so only a server that waits for a
 * signal shows whether the launcher passes signals on.
 */
export const DEFAULT_LAUNCHED = 'ignores-eof';

export function launchInherited(name: string, forward: readonly NodeJS.Signals[]): void {
  const target = process.env.FAKE_LAUNCH ?? DEFAULT_LAUNCHED;
  const script = fileURLToPath(new URL(`../${target}.js`, import.meta.url));
  if (!/^[a-z-]+$/.test(target) || !existsSync(script)) {
    process.stderr.write(`[${name}] FAKE_LAUNCH must name a fake server in ${fileURLToPath(new URL('..', import.meta.url))}, got "${target}"\n`);
    process.exit(2);
  }
  const child = spawn(process.execPath, [script], { stdio: 'inherit' });
  for (const signal of forward) process.on(signal, () => child.kill(signal));
  child.once('error', (error) => {
    process.stderr.write(`[${name}] could not start ${target}: ${error.message}\n`);
    process.exit(1);
  });
  child.once('exit', (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0)));
}
