import type { ClientProfile } from '../types.js';
import { cited, closeStdin } from './steps.js';

export const cursor: ClientProfile = {
  name: 'cursor',
  client: 'Cursor (closed source): observed in third-party trackers',
  behaviours: [
    {
      name: 'cursor',
      versions: { label: 'observed', first: null, last: null, since: 'lark-openapi-mcp #61 and azure-devops-mcp #1598 (Cursor 3.20.10), read 2026-12' },
      client: 'Cursor: observed in third-party trackers',
      spawn: { group: 'same', env: { kind: 'whole', rules: [] }, parentDeathSignal: null, stderr: 'pipe-read', stdio: 'socketpair' },
      stop: [closeStdin],
      closesStdinWhenChildExits: true,
      crash: 'eof',
      abandons: null,
      observed: true,
      sources: {
        spawn: { unsourced: 'no report shows how Cursor spawns a server' },
        env: { unsourced: 'no report shows what a server receives' },
        stop: cited(
          {
            repo: 'larksuite/lark-openapi-mcp',
            where: '#61',
            what: 'when Cursor closes a server it closes stdin and stdout and sends no SIGINT or SIGTERM',
            version: 'open',
          },
          {
            repo: 'microsoft/azure-devops-mcp',
            where: '#1598',
            what: 'Cursor 3.20.10 (Windows): every window reload or config change leaves the previous server running when it does not exit on EOF',
            version: 'open',
          },
        ),
        crash: { unsourced: 'no report of what a server sees when Cursor dies; EOF is what any dead client leaves' },
        abandon: { unsourced: 'no report of Cursor dropping a server unclosed' },
      },
    },
  ],
};
