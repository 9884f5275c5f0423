/**
 * What each MCP SDK does when its server's input ends, one row a SDK, each fact with where it was
 * read (repository, file, function, version) and its public issue: at stdin EOF, with a handler
 * in flight, with a write after the client died; and the fix for each trap. The diagnosis states
 * the row of the SDK the drill read from the program (sdk.ts), docs/languages.md's "Servers in Go, Rust,
 * Java and C#" gives the same table (test/docs-true.test.ts holds them together), and the fakes'
 * READMEs (fake-servers/go, fake-servers/rust, fake-servers/java) have the readings in full.
 */

/** Which SDK: the diagnosis picks its fixes by it. */
export type SdkId = 'ts-sdk-1' | 'ts-sdk-2' | 'python-sdk' | 'fastmcp' | 'go-sdk' | 'mcp-go' | 'rmcp' | 'java-sdk' | 'kotlin-sdk' | 'csharp-sdk';

export interface SdkFact {
  /** What it does, in one clause. */
  text: string;
  /** Where it was read: repository, file and function, and the version or commit. */
  source: string;
  /** The public issue or pull request that says so, in the SDK's own tracker; null when there is none. */
  issue: string | null;
}

export interface SdkFacts {
  id: SdkId;
  /** How the diagnosis names it. */
  title: string;
  /** The package, module, crate or artifact names that identify it (as the readers name them). */
  packages: readonly string[];
  eof: SdkFact;
  inFlight: SdkFact | null;
  writeAfterDeath: SdkFact | null;
  /** Where a fact or fix depends on the version read: what changes for that version. */
  forVersion?: (version: string) => Partial<Pick<SdkFacts, 'inFlight'>> & { fixInFlight?: string };
  /** The fix for each trap. */
  fix: {
    /** A handler in flight at EOF holds the server up. */
    inFlight: string;
    /** Something other than a handler keeps the process up after the run call returned. */
    keepsAlive: string;
    /** A child the server started outlives it. */
    child: string;
    /** What a write after the client died does, and what to do about it. */
    writeAfterDeath: string;
  };
}

const GO_SOURCE = 'modelcontextprotocol/go-sdk, read at v1.6.1, v1.7.0 and v1.8.0 (fake-servers/go/README.md)';
const GO_SIGPIPE: SdkFact = {
  text: "Go's runtime kills the program with SIGPIPE on a write to fd 1 or 2 after the client died, unless it handles SIGPIPE: its own end (exit class broken-pipe)",
  source: 'golang/go os/file_unix.go epipecheck, runtime/signal_unix.go sigpipe, Go 1.26',
  issue: null,
};
const GO_WRITE_FIX =
  'nothing to fix for the exit (SIGPIPE on its own write after the loss is its own end); to keep logging, write to stderr, and signal.Notify(ch, syscall.SIGPIPE) makes a write to a broken stdout return EPIPE instead of killing the program';

export const SDK_FACTS: readonly SdkFacts[] = [
  {
    id: 'ts-sdk-1',
    title: 'TypeScript SDK',
    packages: ['@modelcontextprotocol/sdk'],
    eof: {
      text: "StdioServerTransport listens to stdin 'data' and 'error' only, never 'end', so the server exits on EOF only when nothing else keeps its event loop alive",
      source: 'modelcontextprotocol/typescript-sdk src/server/stdio.ts StdioServerTransport, 1.32.2',
      issue: 'typescript-sdk #2002',
    },
    inFlight: null,
    writeAfterDeath: {
      text: "a write to the closed stdout raises EPIPE, which crashes the process when nothing handles stdout's 'error' (exit class crash)",
      source: 'fake-servers/crashes-on-epipe.ts, measured here',
      issue: null,
    },
    fix: {
      inFlight: "on stdin 'end', abort the work in flight (the handler's extra.signal) and exit",
      keepsAlive:
        "listen for the end of stdin yourself, since the SDK 1.x transport does not (typescript-sdk #2002): process.stdin.on('end', () => server.close().then(() => process.exit(0))), and clear the intervals and timers it started; or move to SDK 2, whose transport closes on stdin end",
      child: "keep the ChildProcess and kill it on stdin 'end' and on 'exit' (or spawn it in a group and signal the group)",
      writeAfterDeath: "handle 'error' on process.stdout (EPIPE) and exit instead of crashing",
    },
  },
  {
    id: 'ts-sdk-2',
    title: 'TypeScript SDK',
    packages: ['@modelcontextprotocol/server'],
    eof: {
      text: "the stdio transport closes itself on stdin end and aborts in-flight requests; what keeps the process up after that is the server's own",
      source: 'modelcontextprotocol/typescript-sdk packages/server stdio transport, 2.x',
      issue: null,
    },
    inFlight: {
      text: 'aborted at stdin end (its AbortSignal fires)',
      source: 'modelcontextprotocol/typescript-sdk packages/server stdio transport, 2.x',
      issue: null,
    },
    writeAfterDeath: null,
    fix: {
      inFlight: "pass the request's AbortSignal to the work it does, so the abort at stdin end ends it",
      keepsAlive: 'on stdin end, close what it opened (timers, intervals, sockets, children) or exit explicitly',
      child: "keep the ChildProcess and kill it on stdin 'end' and on 'exit' (or spawn it in a group and signal the group)",
      writeAfterDeath: "handle 'error' on process.stdout (EPIPE) and exit instead of crashing",
    },
  },
  {
    id: 'python-sdk',
    title: 'Python SDK',
    packages: ['mcp'],
    eof: {
      text: 'run() returns; the interpreter then exits unless a non-daemon thread or a child keeps it',
      source: 'modelcontextprotocol/python-sdk src/mcp/server/stdio.py stdio_server, mcp 2.3.0',
      issue: 'python-sdk #2678',
    },
    inFlight: { text: 'cancelled at EOF; its response is lost', source: 'modelcontextprotocol/python-sdk, mcp 2.3.0', issue: 'python-sdk #2678' },
    writeAfterDeath: null,
    fix: {
      inFlight: 'let the cancellation end the work: await it, or run blocking work with a deadline (anyio.to_thread with a timeout)',
      keepsAlive:
        'the interpreter waits for a non-daemon thread: make it a daemon (threading.Thread(..., daemon=True)), or stop it and join it with a deadline when run() returns',
      child: 'keep the Popen and terminate() it (then wait with a timeout) when run() returns or in the lifespan cleanup',
      writeAfterDeath: 'print to stderr, never stdout, after run() returns',
    },
  },
  {
    id: 'fastmcp',
    title: 'FastMCP',
    packages: ['fastmcp'],
    eof: {
      text: "run() returns (on the Python SDK's stdio transport); the interpreter then exits unless a non-daemon thread or a child keeps it",
      source: 'jlowin/fastmcp on modelcontextprotocol/python-sdk, fastmcp 4.0.10',
      issue: 'python-sdk #2678',
    },
    inFlight: { text: 'cancelled at EOF; its response is lost', source: 'modelcontextprotocol/python-sdk, mcp 2.3.0', issue: 'python-sdk #2678' },
    writeAfterDeath: null,
    fix: {
      inFlight: 'let the cancellation end the work: await it, or run blocking work with a deadline',
      keepsAlive:
        'the interpreter waits for a non-daemon thread: make it a daemon (threading.Thread(..., daemon=True)), or stop it and join it with a deadline when run() returns',
      child: 'keep the Popen and terminate() it (then wait with a timeout) when run() returns or in the lifespan cleanup',
      writeAfterDeath: 'print to stderr, never stdout, after run() returns',
    },
  },
  {
    id: 'go-sdk',
    title: 'go-sdk',
    packages: ['github.com/modelcontextprotocol/go-sdk'],
    eof: {
      text: 'Server.Run returns nil once the connection is idle: no call in flight and no handler running',
      source: `${GO_SOURCE}: mcp/server.go Server.Run and ServerSession.Wait, internal/jsonrpc2/conn.go Connection.updateInFlight`,
      issue: null,
    },
    inFlight: {
      text: 'cancelled at EOF since v1.7.0 (not before: v1.6.1 waits for it to return on its own); Run waits for the handler either way, and its response is dropped',
      source: `${GO_SOURCE}: internal/jsonrpc2/conn.go Connection.readIncoming and Connection.write`,
      issue: 'go-sdk #1061',
    },
    writeAfterDeath: GO_SIGPIPE,
    forVersion: (version) =>
      goVersionBefore(version, 1, 7) === null
        ? {}
        : goVersionBefore(version, 1, 7)
          ? {
              inFlight: {
                text: 'not cancelled at EOF before v1.7.0: Run waits until the handler returns on its own, and its response is dropped',
                source: `${GO_SOURCE}: internal/jsonrpc2/conn.go Connection.readIncoming (v1.6.1 retires only outgoing calls), Connection.write`,
                issue: 'go-sdk #1061',
              },
              fixInFlight:
                "upgrade go-sdk to v1.7.0 or later, which cancels a call in flight at EOF, and bind the handler's blocking work to its ctx (exec.CommandContext, http.NewRequestWithContext, a select on ctx.Done())",
            }
          : {
              inFlight: {
                text: 'cancelled at EOF (since v1.7.0), but Run waits for the handler to return: one that ignores its ctx holds the server up; its response is dropped',
                source: `${GO_SOURCE}: internal/jsonrpc2/conn.go Connection.readIncoming and Connection.write`,
                issue: 'go-sdk #1061',
              },
            },
    fix: {
      inFlight:
        "bind the handler's blocking work to its ctx (exec.CommandContext, http.NewRequestWithContext, a select on ctx.Done()): Server.Run waits for every handler, and go-sdk cancels the ctx at EOF only since v1.7.0, so upgrade from an older one",
      keepsAlive:
        'return from main once Server.Run returns: do not wait on goroutines (a sync.WaitGroup, a channel) without a deadline, and stop the ones it started',
      child: 'start children with exec.CommandContext(ctx, ...) bound to the call, or keep them and kill them when Server.Run returns',
      writeAfterDeath: GO_WRITE_FIX,
    },
  },
  {
    id: 'mcp-go',
    title: 'mcp-go',
    packages: ['github.com/mark3labs/mcp-go'],
    eof: {
      text: "StdioServer.Listen cancels every request's context and returns after the tool workers drain; ServeStdio keeps SIGTERM and SIGINT caught (signal.Notify, never stopped), so once it returned no SIGTERM ends the process",
      source: 'mark3labs/mcp-go server/stdio.go StdioServer.Listen, cancelRequests, ServeStdio, read at v1.2.1 (fake-servers/go/README.md)',
      issue: null,
    },
    inFlight: {
      text: 'its context is cancelled at EOF and Listen waits for it to return; its answer is then written to the dead stdout (toolCallWorker): SIGPIPE',
      source: 'mark3labs/mcp-go server/stdio.go toolCallWorker, writeResponse, v1.2.1',
      issue: null,
    },
    writeAfterDeath: GO_SIGPIPE,
    fix: {
      inFlight: "bind the handler's blocking work to its ctx (exec.CommandContext, a select on ctx.Done()): Listen waits for every handler",
      keepsAlive:
        'return from main once ServeStdio returns: ServeStdio keeps SIGTERM caught for good, so a server that stays up after it ends only by SIGKILL; do not wait on goroutines without a deadline',
      child: 'start children with exec.CommandContext(ctx, ...) bound to the call, or keep them and kill them when ServeStdio returns',
      writeAfterDeath: GO_WRITE_FIX,
    },
  },
  {
    id: 'rmcp',
    title: 'rmcp (the Rust SDK)',
    packages: ['rmcp'],
    eof: {
      text: "the service loop ends (QuitReason::Closed), waits up to 5 s for every handler still running and every response being written, then fires the handlers' tokens, and waiting() returns",
      source: 'modelcontextprotocol/rust-sdk crates/rmcp/src/service.rs serve_inner, read at rmcp 3.11.0 (commit 165f8fd5; fake-servers/rust/README.md)',
      issue: 'rust-sdk PR #759, since 1.3.0',
    },
    inFlight: {
      text: "holds the server up to 5 s (the drain) before its token fires, even when it checks the token; a handler still running after that is waited for by tokio's runtime drop if it is blocking work (spawn_blocking)",
      source: 'rmcp 3.11.0 service.rs serve_inner; tokio 1.54.1 src/runtime/blocking/pool.rs BlockingPool::drop (fake-servers/rust/README.md)',
      issue: 'rust-sdk PR #759',
    },
    writeAfterDeath: {
      text: "Rust ignores SIGPIPE, so a write returns EPIPE: rmcp logs it and goes on, a program's own write_all gets it as a value, println! and eprintln! panic on it (exit 101, its own end)",
      source:
        'rust-lang/rust library/std/src/sys/pal/unix/mod.rs reset_sigpipe, library/std/src/io/stdio.rs print_to; rmcp 3.11.0 transport/async_rw.rs (fake-servers/rust/README.md)',
      issue: null,
    },
    fix: {
      inFlight:
        "check the request's cancellation token in every long handler (tokio::select! on context.ct.cancelled(), children with kill_on_drop), and keep calls shorter than the exit deadline or raise it past rmcp's 5 s drain; never leave blocking work (spawn_blocking) unbounded",
      keepsAlive:
        "return from main once waiting() returns: tokio's runtime drop waits for every spawn_blocking task with no timeout, so end them (or move the work to async tasks, which are dropped)",
      child: 'keep each tokio::process::Child with kill_on_drop(true) (or end it when waiting() returns): a dropped std::process::Child lives on',
      writeAfterDeath:
        'nothing to fix for the exit (a panic on a broken stdout after the loss is its own end); write with write_all and handle the error rather than println! after waiting() returns',
    },
  },
  {
    id: 'java-sdk',
    title: 'the Java SDK',
    packages: ['io.modelcontextprotocol.sdk:mcp', 'io.modelcontextprotocol.sdk:mcp-core'],
    eof: {
      text: 'the stdin thread ends and calls session.close(), with no public hook to act on it; the JVM exits when its last non-daemon thread ends',
      source:
        'modelcontextprotocol/java-sdk mcp-core StdioServerTransportProvider startInboundProcessing, v2.0.1, main 305e4cbd and the 2.2.0 jar (fake-servers/java/README.md)',
      issue: 'java-sdk #936',
    },
    inFlight: {
      text: 'not cancelled: the transport waits for it (keeping the JVM up) and drops its answer; a request to the client waits out requestTimeout (10 s sync, 10 h async)',
      source: 'modelcontextprotocol/java-sdk StdioServerTransportProvider handleIncomingMessages, startOutboundProcessing; McpServerSession.close',
      issue: 'java-sdk #936',
    },
    writeAfterDeath: {
      text: 'silent: System.out is a PrintStream, which swallows EPIPE, and HotSpot ignores SIGPIPE',
      source: 'OpenJDK java.io.PrintStream, src/hotspot/os/posix/signals_posix.cpp',
      issue: null,
    },
    fix: {
      inFlight:
        'give every tool a deadline (a timeout on its Mono or Future) and lower requestTimeout: the SDK neither cancels a call at EOF nor lets the JVM exit before it returns',
      keepsAlive:
        'a non-daemon thread keeps the JVM up after the transport closed: make it a daemon (Thread.setDaemon(true)) or stop it on close (no public hook yet, java-sdk #936)',
      child: 'keep the Process and destroy() it in a shutdown hook and when the tool is done',
      writeAfterDeath: 'nothing shows the loss on stdout (PrintStream.checkError() does): exit when the transport closes',
    },
  },
  {
    id: 'kotlin-sdk',
    title: 'the Kotlin SDK',
    packages: ['io.modelcontextprotocol:kotlin-sdk', 'io.modelcontextprotocol:kotlin-sdk-server', 'io.modelcontextprotocol:kotlin-sdk-jvm'],
    eof: {
      text: 'the transport fires onClose, Server.onClose does not: the official sample hangs',
      source: 'modelcontextprotocol/kotlin-sdk (shared/REFERENCE.md)',
      issue: 'kotlin-sdk #708',
    },
    inFlight: { text: 'cancelled only on unreleased main', source: 'modelcontextprotocol/kotlin-sdk (shared/REFERENCE.md)', issue: null },
    writeAfterDeath: { text: 'silent', source: 'modelcontextprotocol/kotlin-sdk (shared/REFERENCE.md)', issue: null },
    fix: {
      inFlight: 'give every tool a deadline (withTimeout): it is not cancelled at EOF',
      keepsAlive: "exit on the transport's onClose yourself (Server.onClose does not fire, kotlin-sdk #708)",
      child: 'keep the Process and destroy() it when the transport closes',
      writeAfterDeath: "exit on the transport's onClose rather than keep writing",
    },
  },
  {
    id: 'csharp-sdk',
    title: 'the C# SDK',
    packages: ['ModelContextProtocol', 'ModelContextProtocol.Core', 'ModelContextProtocol.AspNetCore'],
    eof: {
      text: 'the read loop ends, McpServer.RunAsync returns and the hosted service calls StopApplication()',
      source:
        'modelcontextprotocol/csharp-sdk src/ModelContextProtocol.Core/Server/StreamServerTransport.cs ReadMessagesAsync, src/ModelContextProtocol/SingleSessionMcpServerHostedService.cs ExecuteAsync, main 609499b2',
      issue: null,
    },
    inFlight: {
      text: 'waited for, not cancelled: the message loop waits for every handler still running before RunAsync returns',
      source: 'modelcontextprotocol/csharp-sdk src/ModelContextProtocol.Core/McpSessionHandler.cs ProcessMessagesCoreAsync, main 609499b2',
      issue: 'csharp-sdk PR #1403',
    },
    writeAfterDeath: {
      text: ".NET's console stream treats EPIPE as success: the write is lost silently",
      source: 'dotnet/runtime src/libraries/System.Console/src/System/ConsolePal.Unix.cs Write (shared/REFERENCE.md)',
      issue: null,
    },
    fix: {
      inFlight:
        "give every tool a deadline (a CancellationTokenSource with CancelAfter, linked to the request's token): at EOF the SDK waits for the handler without cancelling it (PR #1403)",
      keepsAlive: 'once RunAsync returns the host stops: make threads background (IsBackground = true) and let every IHostedService honour its stopping token',
      child: 'keep the Process and Kill(entireProcessTree: true) it when the host stops (IHostApplicationLifetime.ApplicationStopping)',
      writeAfterDeath: 'nothing shows the loss on stdout: exit when RunAsync returns',
    },
  },
];

/** A Go module version (v1.6.1, v1.7.0-rc.1, a pseudo-version) before major.minor; null when it cannot be read ((devel)). */
function goVersionBefore(version: string, major: number, minor: number): boolean | null {
  const m = /^v(\d+)\.(\d+)\./.exec(version);
  if (!m) return null;
  return Number(m[1]) < major || (Number(m[1]) === major && Number(m[2]) < minor);
}

/** The row of an SDK by its id, with what changes for the version read. */
export function sdkFacts(id: SdkId, version: string | null = null): SdkFacts {
  const row = SDK_FACTS.find((r) => r.id === id);
  if (!row) throw new Error(`no SDK facts for ${id}`);
  const changed = version !== null && row.forVersion ? row.forVersion(version) : null;
  if (!changed || Object.keys(changed).length === 0) return row;
  return { ...row, inFlight: changed.inFlight ?? row.inFlight, fix: { ...row.fix, inFlight: changed.fixInFlight ?? row.fix.inFlight } };
}

/** One fact as the diagnosis states it: the text, then its issue where there is one. */
export function stated(fact: SdkFact | null): string | null {
  if (!fact) return null;
  return fact.issue ? `${fact.text} (${fact.issue})` : fact.text;
}
