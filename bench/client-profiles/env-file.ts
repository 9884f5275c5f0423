/**
 * A server's variables for a stand-in client that passes its own choice of environment to the
 * server (survey --verify): written to a file only its owner may read, which a shell in front of
 * the server reads and then replaces itself with the server (exec), so no value is in any
 * process's command line (/proc/PID/cmdline) and the process chain below the client is the
 * server's own. `env NAME=value server...` put every value, the catalog's dummy secrets with them,
 * in the command line.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One shell word: 'value', with each ' written '\''. */
function quoted(value: string): string {
  return `'${value.split("'").join("'\\''")}'`;
}

/** Writes `env` to `dir`/server.env (mode 0600) and gives the command that runs `words` with it. */
export function withEnvFile(env: Readonly<Record<string, string>>, words: readonly string[], dir: string): string[] {
  for (const name of Object.keys(env))
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`${name}: expected a variable's name (letters, digits and _, not first a digit)`);
  const file = join(dir, 'server.env');
  const lines = Object.entries(env).map(([name, value]) => `${name}=${quoted(value)}\n`);
  writeFileSync(file, lines.join(''), { mode: 0o600 });
  // set -a exports every variable the file sets; $0 is the file, "$@" the server's words.
  return ['sh', '-c', 'set -a; . "$0"; set +a; exec "$@"', file, ...words];
}
