import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTracked } from './support/drive.js';
import { Cleanup } from '../support/cleanup.js';
import { ensureBuilt, FAKE_TOOLS, NODE_FAKES, type FakeName } from './support/subjects.js';

const janitor = new Cleanup();
beforeAll(ensureBuilt);
afterEach(() => janitor.run());

const ALL: FakeName[] = [...NODE_FAKES, 'python/well-behaved'];

describe.each(ALL)('%s exposes the shared tool set', (name) => {
  it('lists exactly echo, spawn-helper, slow, subscribe, write and start-job, and answers the local ones', async () => {
    const { subject } = await startTracked(name, janitor);
    await subject.handshake();
    const list = await subject.request('tools/list');
    const tools = list.result?.tools as Array<{ name: string; annotations?: { readOnlyHint?: boolean } }>;
    expect(tools.map((tool) => tool.name).sort()).toEqual([...FAKE_TOOLS].sort());
    expect(tools.find((tool) => tool.name === 'echo')?.annotations?.readOnlyHint).toBe(true);

    expect(await subject.callTool('echo', { text: 'héllo wörld' })).toBe('héllo wörld');
    expect(await subject.callTool('slow', { ms: 20 })).toBe('done');
    expect(await subject.callTool('subscribe')).toBe('subscribed');
    // A bad argument is refused, not echoed: the input shape is really enforced.
    const bad = await subject.request('tools/call', { name: 'echo', arguments: { text: 42 } });
    expect(bad.error !== undefined || (bad.result as { isError?: boolean } | undefined)?.isError === true).toBe(true);
    // The janitor ends every subject, including the ones that ignore EOF.
  });
});
