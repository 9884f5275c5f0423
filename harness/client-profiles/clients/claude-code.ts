import type { ClientProfile } from '../types.js';
import { cited, signal, wait } from './steps.js';

const REPO = 'anthropics/claude-code';

export const claudeCode: ClientProfile = {
  name: 'claude-code',
  client: 'Claude Code (closed source; Bun runtime): observed in its tracker',
  behaviours: [
    {
      name: 'claude-code',
      versions: { label: 'observed', first: null, last: null, since: 'its tracker, read 2026-12' },
      client: 'Claude Code (closed source; Bun runtime): observed in its tracker',
      spawn: { group: 'same', env: { kind: 'whole', rules: [] }, parentDeathSignal: null, stderr: 'pipe-read', stdio: 'socketpair' },
      // The tracker gives the order and the target, not the waits: 500 ms each is our choice.
      stop: [signal('SIGINT', 'child'), wait(500, 'child'), signal('SIGTERM', 'child', 'child'), wait(500, 'child'), signal('SIGKILL', 'child', 'child')],
      closesStdinWhenChildExits: true,
      crash: 'eof',
      abandons: 'a /mcp reconnect after the entry was edited (#79740)',
      observed: true,
      sources: {
        // #30147 (closed): its debug log carries the server's stderr, so stderr is piped and read.
        spawn: { unsourced: 'the same process group and the stdio (a Bun socketpair) have no source; only the piped, read stderr has (#30147)' },
        env: { unsourced: 'the whole environment is an assumption: no report shows what a server receives' },
        // #16744 (closed): a bare SIGKILL on /exit; #40207 (closed): kill(SIGINT) from the main process,
        // kill(SIGTERM) from a wrapper; #31646: servers exit on SIGINT at /exit. All at a session's
        // end, not a server stopped while the client lives on (#79740: stdin closed and a wait).
        stop: {
          unsourced:
            'SIGINT, SIGTERM, SIGKILL to the child is what #16744, #31646 and #40207 saw at the end of a session, not when one server is stopped while Claude Code lives on (#79740: stdin closed, then a wait); the 500 ms waits are ours',
        },
        crash: { unsourced: 'no report of what a server sees when Claude Code is killed; EOF is what any dead client leaves' },
        abandon: cited({ repo: REPO, where: '#79740', what: 'a /mcp reconnect abandons the old server with neither EOF nor a signal', version: 'as filed' }),
      },
    },
  ],
};
