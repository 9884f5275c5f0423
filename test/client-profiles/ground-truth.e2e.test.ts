/**
 * The ground-truth bench (bench/client-profiles/) measures what it claims, both ways: the real
 * TypeScript SDK client stopping a launcher that forwards nothing leaves the real server and
 * its helper alive (the SDK signals only its direct child), and the same client stopping a
 * launcher that forwards signals leaves nothing. The Cline CLI's stand-in (its own spawn and
 * child.kill(), bench/client-profiles/node-raw-client.ts) likewise: a server that ignores SIGTERM
 * and is never sent EOF survives with its helper; one that exits on SIGTERM leaves nothing. The
 * holder lists and then ends everything.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { cell } from '../../bench/client-profiles/ground-truth-cell.js';
import { runTrial } from '../../bench/client-profiles/trial.js';
import { ensureBuilt } from '../fake-servers/support/subjects.js';
import { until } from '../support/until.js';

/** Live processes (not zombies) whose command line holds `marker`. */
function markedBy(marker: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker) && !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return false;
      }
    })
    .map(Number);
}

const root = fileURLToPath(new URL('../../', import.meta.url));
const TS_SDK = [process.execPath, `${root}dist/bench/client-profiles/node-sdk-client.js`, 'ts-sdk', `${root}node_modules/@modelcontextprotocol/sdk`];
const CLINE_CLI = [process.execPath, `${root}dist/bench/client-profiles/node-raw-client.js`];
const trial = (server: string, client = TS_SDK) =>
  runTrial({
    holder: ['python3', `${root}bench/client-profiles/holder.py`],
    client,
    server: [process.execPath, `${root}dist/fake-servers/${server}.js`],
    situation: 'stop',
    graceMs: 500,
    readyMs: 30_000,
    stoppedMs: 30_000,
  });

beforeAll(ensureBuilt);

describe('client-profile ground truth', () => {
  it('ts-sdk stopping launcher-forwards-nothing: the real server and its helper survive', async () => {
    const result = await trial('launcher-forwards-nothing');
    expect(result.error).toBeNull();
    expect(cell(result)).toBe('helper + server');
    expect(result.stopMs).toBeGreaterThanOrEqual(4000); // both 2 s waits ran out: the grandchild holds stdout
  });

  it('ts-sdk stopping launcher-forwards-signals: nothing survives', async () => {
    const result = await trial('launcher-forwards-signals');
    expect(result.error).toBeNull();
    expect(cell(result)).toBe('none');
  });

  it('the Cline CLI stopping ignores-sigterm: never told by EOF, the server and its helper survive', async () => {
    const result = await trial('ignores-sigterm', CLINE_CLI);
    expect(result.error).toBeNull();
    expect(cell(result)).toBe('child + helper');
  });

  it('an interrupted trial (survey --verify stopped) stops waiting and its holder ends the server it held', async () => {
    // A grace far beyond the test's timeout: only the abort can end this trial in time.
    const marker = `gt-abort-${process.pid}-${Date.now()}`;
    const controller = new AbortController();
    const running = runTrial({
      holder: ['python3', `${root}bench/client-profiles/holder.py`],
      client: TS_SDK,
      server: [process.execPath, `${root}dist/fake-servers/ignores-eof.js`, marker],
      situation: 'crash',
      graceMs: 600_000,
      readyMs: 30_000,
      stoppedMs: 30_000,
      signal: controller.signal,
    });
    const withMarker = () => markedBy(marker);
    await until('the held server to start', () => withMarker().length > 0, 30_000);
    controller.abort();
    const result = await running;
    expect(result.error).toBe('interrupted');
    expect(withMarker()).toEqual([]);
  });

  it('the Cline CLI stopping well-behaved: its SIGTERM ends the server and the helper with it', async () => {
    const result = await trial('well-behaved', CLINE_CLI);
    expect(result.error).toBeNull();
    expect(cell(result)).toBe('none');
  });
});
