import type { ClientProfile } from '../types.js';
import { cited, closeStdin, wait } from './steps.js';

const RECONNECT = {
  repo: 'anthropics/claude-code',
  where: '#79740',
  what: "/mcp reconnect, entry unchanged: stdin closed, the old server's exit awaited, then the new one spawned; entry edited: the old one abandoned",
  version: 'open; reproduced on 2.1.233',
};

export const claudeCodeReconnect: ClientProfile = {
  name: 'claude-code-reconnect',
  client: "Claude Code's /mcp reconnect (closed source): observed in its tracker",
  behaviours: [
    {
      name: 'claude-code-reconnect',
      versions: { label: 'observed', first: null, last: null, since: '#79740, reproduced on 2.1.233, read 2026-12' },
      client: 'Claude Code 2.1.233, /mcp reconnect with an unchanged entry: observed in its tracker',
      spawn: { group: 'same', env: { kind: 'whole', rules: [] }, parentDeathSignal: null, stderr: 'pipe-read', stdio: 'socketpair' },
      // The tracker says it waits for the exit, not how long: 5000 ms is our bound. Nothing follows.
      stop: [closeStdin, wait(5000, 'child')],
      closesStdinWhenChildExits: true,
      crash: 'eof',
      abandons: 'a /mcp reconnect after the entry was edited (#79740)',
      observed: true,
      sources: {
        spawn: { unsourced: "as the claude-code profile's: only the piped, read stderr has a source (#30147)" },
        env: { unsourced: 'the whole environment is an assumption: no report shows what a server receives' },
        stop: cited(RECONNECT),
        crash: { unsourced: 'no report of what a server sees when Claude Code is killed; EOF is what any dead client leaves' },
        abandon: cited(RECONNECT),
      },
    },
  ],
};
