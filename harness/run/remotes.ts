/** The drill remotes of a run: one for the built-in API shared by every drill (each with its own session), one per handler set. */
import { pathToFileURL } from 'node:url';
import type { RequestHandler } from 'msw';
import type { Scenario } from '../config/index.js';
import { ConfigError } from '../config/index.js';
import { createRemote, type DrillRemote } from '../remote/remote.js';
import { RunTls } from './run-tls.js';

export class RemotePool {
  private readonly remotes = new Map<string, Promise<DrillRemote>>();
  readonly tls: RunTls;

  constructor(runId: string) {
    this.tls = new RunTls(runId);
  }

  /** The scenario's remote; it serves HTTPS too once a scenario with a remote: section asks (the run's CA is made then). */
  async remoteFor(scenario: Scenario): Promise<DrillRemote> {
    const { handlers, writes } = scenario.remote;
    const key = handlers ? `${handlers}\u0000${JSON.stringify(writes)}` : '';
    let remote = this.remotes.get(key);
    if (!remote) {
      remote = handlers ? loadHandlers(scenario, handlers).then((list) => createRemote({ handlers: list, writes })) : createRemote();
      this.remotes.set(key, remote);
    }
    const ready = await remote;
    if (scenario.remote.declared) await ready.enableHttps(await this.tls.ca());
    return ready;
  }

  async close(): Promise<void> {
    const all = await Promise.allSettled(this.remotes.values());
    await Promise.all(all.map((r) => (r.status === 'fulfilled' ? r.value.close() : undefined)));
    this.remotes.clear();
    await this.tls.close();
  }
}

/** A module whose `handlers` (or default) export is an array of msw 2 request handlers. */
async function loadHandlers(scenario: Scenario, file: string): Promise<RequestHandler[]> {
  let mod: { handlers?: unknown; default?: unknown };
  try {
    mod = (await import(pathToFileURL(file).href)) as typeof mod;
  } catch (error) {
    throw new ConfigError({
      file: scenario.file,
      field: 'remote.handlers',
      message: `cannot load ${file}: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
  const list = mod.handlers ?? mod.default;
  if (!Array.isArray(list)) {
    throw new ConfigError({
      file: scenario.file,
      field: 'remote.handlers',
      message: `expected ${file} to export \`handlers\` (an array of msw request handlers), got ${typeof list}`,
    });
  }
  return list as RequestHandler[];
}
