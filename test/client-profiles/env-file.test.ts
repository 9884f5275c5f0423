/**
 * survey --verify's launch (bench/client-profiles/env-file.ts): the server gets every variable,
 * quotes and all, from a file only its owner can read, and no value is in the command line of
 * any process: the shell reads the file and execs the server in its own place (same pid).
 */
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withEnvFile } from '../../bench/client-profiles/env-file.js';
import { tempDir } from '../support/temp-dir.js';

const SECRET = `dummy-'quoted' "double" $HOME \`x\` token-0123456789`;

describe('the verify’s environment file', () => {
  it('gives the server its variables and keeps them out of every command line', async () => {
    const dir = tempDir();
    // The server: prints its pid, its variable and its own command line once it runs.
    const server = [
      process.execPath,
      '-e',
      'console.log(JSON.stringify({ pid: process.pid, value: process.env.API_TOKEN, cmdline: require("fs").readFileSync("/proc/self/cmdline", "utf8") }))',
    ];
    const [command, ...args] = withEnvFile({ API_TOKEN: SECRET, EMPTY: '' }, server, dir);
    expect([command, ...args].join(' ')).not.toContain('token-0123456789');
    expect(statSync(join(dir, 'server.env')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'server.env'), 'utf8')).toContain('API_TOKEN=');
    const child = spawn(command!, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await new Promise((resolve) => child.on('close', resolve));
    const seen = JSON.parse(out) as { pid: number; value: string; cmdline: string };
    expect(seen.value).toBe(SECRET);
    expect(seen.pid).toBe(child.pid); // exec'd: the shell is not left in the chain
    expect(seen.cmdline).not.toContain('token-0123456789');
  });

  it('refuses a name a shell cannot set', () => {
    expect(() => withEnvFile({ 'BAD-NAME': 'x' }, ['true'], tempDir())).toThrow(
      "BAD-NAME: expected a variable's name (letters, digits and _, not first a digit)",
    );
  });
});
