/**
 * init's listing of a server's tools (harness/init/list-tools.ts) in a loopback-only network, as
 * a survey asks for it: reaches-out, started to be asked for its tools, is refused at a public
 * address and at this machine's own, and is in another network namespace; asked on the host's
 * network, it is in ours and reaches this machine.
 */
import { readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listServerTools } from '../../harness/init/list-tools.js';
import { packageRoot } from '../../harness/util/paths.js';
import { anyAddressListener, hostAddress, PUBLIC_TARGET, readReport } from '../support/network.js';
import { tempDir } from '../support/temp-dir.js';

const HOST_NS = readlinkSync('/proc/self/ns/net');
const address = hostAddress();
let listener: Awaited<ReturnType<typeof anyAddressListener>>;
beforeAll(async () => {
  listener = await anyAddressListener();
});
afterAll(() => listener.close());

const targets = (): string[] => [PUBLIC_TARGET, ...(address ? [`${address}:${listener.port}`] : [])];

function server(report: string) {
  return {
    command: process.execPath,
    args: [join(packageRoot(), 'dist/fake-servers/reaches-out.js')],
    cwd: packageRoot(),
    env: { REACH_REPORT: report, REACH_TARGETS: targets().join(',') },
  };
}

describe('listing the tools in a loopback-only network', () => {
  it('lists them with the server refused everywhere, in a namespace of its own', async () => {
    const report = join(tempDir(), 'report.json');
    const { tools, ended } = await listServerTools(server(report), 20_000, { network: 'loopback' });
    expect(tools.map((t) => t.name)).toContain('echo');
    expect(ended).toEqual([]);
    const r = readReport(report);
    expect(r.netns).not.toBe(HOST_NS);
    expect(r.targets).toEqual(Object.fromEntries(targets().map((t) => [t, { ok: false, code: 'ENETUNREACH' }])));
  });

  it('on the host network, the same listing is in our namespace', async () => {
    const report = join(tempDir(), 'report.json');
    await listServerTools(server(report), 20_000);
    const r = readReport(report);
    expect(r.netns).toBe(HOST_NS);
    if (address) expect(r.targets[`${address}:${listener.port}`]).toEqual({ ok: true });
  });
});
