import type { ClientProfile } from '../types.js';
import { cited } from './steps.js';

const REPLACED = {
  repo: 'anthropics/claude-code',
  where: '#88514',
  what: 'a renderer releasing its port: Desktop starts a replacement, the replaced server never reads EOF and runs while the app is open (Windows 11)',
  version: 'open, labelled invalid',
};

export const claudeDesktop: ClientProfile = {
  name: 'claude-desktop',
  client: 'Claude Desktop (closed source): observed in trackers',
  behaviours: [
    {
      name: 'claude-desktop',
      versions: { label: 'observed', first: null, last: null, since: '#88514 (Claude Desktop 1.34493.1.0), read 2026-12' },
      client: 'Claude Desktop 1.34493.1.0: observed in trackers',
      spawn: { group: 'same', env: { kind: 'whole', rules: [] }, parentDeathSignal: null, stderr: 'pipe-read', stdio: 'socketpair' },
      stop: [{ kind: 'abandon' }],
      closesStdinWhenChildExits: true,
      crash: 'eof',
      abandons: 'a renderer releasing its port: the replaced server (#88514)',
      observed: true,
      sources: {
        spawn: { unsourced: "no report shows how Desktop spawns a server; these are the claude-code profile's" },
        env: { unsourced: 'no report shows what a server receives' },
        stop: cited(REPLACED),
        crash: cited({ repo: 'posit-dev/mcptools', where: '#19', what: 'macOS: Desktop sends the server no signal when it exits', version: 'closed' }),
        abandon: cited(REPLACED),
      },
    },
  ],
};
