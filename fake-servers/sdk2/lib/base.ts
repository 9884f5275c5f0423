/**
 * runSdk2Server: a fake server on @modelcontextprotocol/server 2.4.0 (pinned), served by
 * `serveStdio`, which decides the era per connection (`legacy: 'serve'` answers initialize too,
 * `'reject'` answers it with UnsupportedProtocolVersion -32022). SDK 2's StdioServerTransport
 * closes itself on stdin EOF (unlike SDK 1's, typescript-sdk #2002); these servers clean up when
 * their transport closes, unless their one behaviour is not to.
 */
import { McpServer, serveStdio, StdioServerTransport } from './sdk.js';
import { ChildTracker } from '../../lib/children.js';
import { exitWithMark } from '../../lib/exit-mark.js';
import { createLog } from '../../lib/log.js';
import { TimerRegistry } from '../../lib/timers.js';
import { registerSdk2Tools, type CancelBehaviour } from './tools.js';

export interface Sdk2ServerOptions {
  name: string;
  legacy: 'serve' | 'reject';
  /** End children, clear timers and exit once the transport closed (stdin EOF). false: lives on. */
  exitOnClose: boolean;
  onCancel: CancelBehaviour;
  /** Announce a tool-list change every this many ms (a watcher): listen streams get it. */
  announceEveryMs?: number;
}

/** The wire transport, with a hook on its close: the connection's end (EOF, or the server closing it), not a probe instance's. */
class ObservedStdioTransport extends StdioServerTransport {
  constructor(private readonly onClosed: () => void) {
    super();
  }

  override async close(): Promise<void> {
    await super.close();
    this.onClosed();
  }
}

export function runSdk2Server(options: Sdk2ServerOptions): void {
  const log = createLog(options.name);
  const timers = new TimerRegistry();
  const children = new ChildTracker(log);
  let stopping = false;
  const shutdown = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    log(`shutting down (${reason})`);
    timers.clearAll();
    await children.endAll();
    log('exit 0');
    exitWithMark(0);
  };
  const transport = new ObservedStdioTransport(() => {
    if (options.exitOnClose) void shutdown('transport closed');
    else log('transport closed: staying up');
  });
  const handle = serveStdio(
    () => {
      const server = new McpServer({ name: options.name, version: '0.1.0' }, { capabilities: { tools: { listChanged: true } } });
      registerSdk2Tools(server, { children, timers, log, onCancel: options.onCancel, closeConnection: () => void handle.close() });
      if (options.announceEveryMs !== undefined) timers.interval(() => server.sendToolListChanged(), options.announceEveryMs);
      return server;
    },
    { legacy: options.legacy, transport, onerror: (error) => log(`sdk: ${error.message}`) },
  );
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  log(`ready (pid ${process.pid})`);
}
