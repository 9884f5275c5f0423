/**
 * A run's trust files live in its private folder in the run registry, `<runs>/<run>.tls/`: made
 * 0700 at the first drill that needs them, each file 0600, no private key in any; removed at the
 * run's end; a dead run's folder is removed by the next run that writes its own, a live run's kept.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { newRunId } from '../../harness/observe/index.js';
import { registerRun } from '../../harness/registry/index.js';
import { removeDeadTlsFolders, RunTls } from '../../harness/run/run-tls.js';
import { runFile } from '../../harness/registry/registration.js';

const registrations: { unregister(): void }[] = [];
afterEach(() => {
  for (const r of registrations.splice(0)) r.unregister();
});

describe("a run's trust files", () => {
  it('are written once into a 0700 folder of the run, 0600 each, with no key, and go at the end', async () => {
    const runId = newRunId();
    registrations.push(registerRun(runId));
    const tls = new RunTls(runId);
    const [files, again] = await Promise.all([tls.files(), tls.files()]);
    expect(again).toBe(files);
    const dir = runFile(runId, '.tls');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const names = readdirSync(dir).sort();
    expect(names).toEqual(files.truststore ? ['bundle.pem', 'ca.pem', 'truststore.p12'] : ['bundle.pem', 'ca.pem']);
    for (const name of names) expect(statSync(`${dir}/${name}`).mode & 0o777).toBe(0o600);
    const ca = readFileSync(files.caFile, 'utf8');
    const bundle = readFileSync(files.bundleFile, 'utf8');
    expect(bundle.endsWith(ca)).toBe(true);
    expect(bundle.split('BEGIN CERTIFICATE').length).toBeGreaterThan(10); // the system's CAs first
    for (const text of [ca, bundle]) expect(text).not.toMatch(/PRIVATE KEY/);
    await tls.close();
    expect(existsSync(dir)).toBe(false);
  });

  it("of a dead run are removed, a live run's kept", () => {
    const dead = newRunId();
    const live = newRunId();
    registrations.push(registerRun(live));
    mkdirSync(runFile(dead, '.tls'), { mode: 0o700 });
    mkdirSync(runFile(live, '.tls'), { mode: 0o700 });
    expect(removeDeadTlsFolders((id) => id === dead || id === live)).toBe(1);
    expect(existsSync(runFile(dead, '.tls'))).toBe(false);
    expect(existsSync(runFile(live, '.tls'))).toBe(true);
    for (const r of registrations.splice(0)) r.unregister();
    expect(removeDeadTlsFolders((id) => id === live)).toBe(1);
  });
});
