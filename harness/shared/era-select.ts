/**
 * Which era the drill speaks. `auto` follows the 2026-07-28 stdio backward-compatibility rule:
 * probe with server/discover, fall back to initialize on any error or a timeout. After a timeout
 * the probe keeps waiting beside initialize, so the era never depends on start-up speed; a -32022
 * naming 2026-07-28 means the server is locked to it (python-sdk PR #3038), so probe again as
 * its `mcp/client/_probe.py` does.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { monoNow } from '../util/clock.js';
import { errorMessage } from '../util/errors.js';
import { LEGACY_REVISION, modernEnvelope, MODERN_REVISION, SERVER_INFO_META_KEY } from './envelope.js';
import type { EraSession } from './era-session.js';
import { LegacySession } from './legacy-session.js';
import { ModernSession } from './modern-session.js';
import type { ClientEvent, EraChoice, ProtocolEra, StartCommand } from './protocol.js';
import type { RecordingStdioTransport } from './recording-transport.js';
import { RpcClosed, RpcRequester, RpcTimeout } from './rpc-requester.js';
import { SharedLink } from './shared-link.js';

export const DEFAULT_DISCOVER_TIMEOUT_MS = 2_000;

/** UnsupportedProtocolVersion: what a server locked to the other era answers. */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

export interface EraChosen {
  session: EraSession;
  era: ProtocolEra;
  chosenBy: EraChoice;
  fallbackReason?: string;
  serverName: string | null;
  serverVersion: string | null;
  protocolVersion: string | null;
}

type Probe = { ok: true; result: Record<string, unknown> } | { ok: false; outcome: 'error' | 'timeout' | 'closed'; detail: string };

export async function selectEra(transport: RecordingStdioTransport, command: StartCommand, emit: (event: ClientEvent) => void): Promise<EraChosen> {
  await transport.start();
  const protocol = command.protocol ?? 'auto';
  if (protocol === LEGACY_REVISION) return legacy(transport, command, 'pinned');
  const rpc = new RpcRequester(transport);
  rpc.attach();
  if (protocol === MODERN_REVISION) {
    const probe = await discover(rpc, command.callTimeoutMs);
    const offered = probe.ok ? offersModern(probe.result) : null;
    if (probe.ok && offered === null) return modern(rpc, probe.result, 'pinned', emit);
    throw new Error(`protocol 2026-07-28 is pinned and server/discover failed: ${probe.ok ? offered : probe.detail}`);
  }
  return auto(transport, rpc, command, emit);
}

async function auto(transport: RecordingStdioTransport, rpc: RpcRequester, command: StartCommand, emit: (event: ClientEvent) => void): Promise<EraChosen> {
  const discoverTimeoutMs = command.discoverTimeoutMs ?? DEFAULT_DISCOVER_TIMEOUT_MS;
  // The probe waits as long as any call may: its timeout below only decides when initialize follows.
  const probe = discover(rpc, Math.max(command.callTimeoutMs, discoverTimeoutMs));
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), discoverTimeoutMs)));
  const early = await Promise.race([probe, timedOut]);
  clearTimeout(timer);
  if (early !== null) {
    const offered = early.ok ? offersModern(early.result) : null;
    if (early.ok && offered === null) return modern(rpc, early.result, 'probed', emit);
    return fallBack(transport, rpc, command, emit, early, early.ok ? (offered as string) : early.detail);
  }
  const detail = `server/discover: no answer within ${discoverTimeoutMs} ms`;
  emit({ type: 'era-probe', t: monoNow(), outcome: 'timeout', detail });
  return raceAfterTimeout(transport, rpc, command, emit, probe, detail);
}

/** The probe answered in time, but not with the modern era: initialize on the same connection, by the SDK client alone. */
async function fallBack(
  transport: RecordingStdioTransport,
  rpc: RpcRequester,
  command: StartCommand,
  emit: (event: ClientEvent) => void,
  probe: Probe,
  detail: string,
): Promise<EraChosen> {
  emit({ type: 'era-probe', t: monoNow(), outcome: probe.ok ? 'error' : probe.outcome, detail });
  rpc.detach();
  transport.onmessage = undefined;
  transport.onclose = undefined;
  transport.onerror = undefined;
  try {
    return await legacy(transport, command, 'fell-back', detail);
  } catch (error) {
    if (!probe.ok && probe.outcome === 'closed') throw closedOnProbe(error);
    throw error;
  }
}

type Settled = { kind: 'modern'; result: Record<string, unknown>; chosenBy: EraChoice } | { kind: 'initialized' } | { kind: 'refused'; error: unknown };

/** The probe timed out and keeps waiting; initialize follows on a shared link. The first of: a late modern answer, initialize answered or refused. */
async function raceAfterTimeout(
  transport: RecordingStdioTransport,
  rpc: RpcRequester,
  command: StartCommand,
  emit: (event: ClientEvent) => void,
  probe: Promise<Probe>,
  timeoutDetail: string,
): Promise<EraChosen> {
  let probeEnded: Probe | null = null;
  void probe.then((p) => (probeEnded = p));
  const session = new LegacySession();
  const link = new SharedLink(transport, rpc);
  const lateModern = modernAnswer(probe, 'probed-late');
  const initialized = session.connect(link, command.callTimeoutMs).then(
    (): Settled => ({ kind: 'initialized' }),
    (error: unknown): Settled => ({ kind: 'refused', error }),
  );
  let settled = await Promise.race([lateModern, initialized]);
  if (settled.kind === 'refused' && !lockedToModern(settled.error)) {
    // A server whose probe started its session refuses the initialize sent meanwhile (go-sdk
    // v1.8.0 mcp/server.go: handling server/discover fills the session's InitializeParams, and
    // (*ServerSession).initialize then answers `duplicate "initialize" received`), and may send
    // that refusal before the probe's answer: the probe's answer decides, once it has one.
    const ended = await probe;
    if (ended.ok && offersModern(ended.result) === null) settled = { kind: 'modern', result: ended.result, chosenBy: 'probed-late' };
  }
  if (settled.kind === 'refused' && lockedToModern(settled.error)) {
    // The server read the probe and is locked to the modern era: its answer is on the way; probe once more beside it.
    const refusal = settled.error;
    emit({ type: 'era-probe', t: monoNow(), outcome: 'error', detail: `initialize refused: ${errorMessage(refusal)}; probing again` });
    const reprobe = discover(rpc, command.callTimeoutMs);
    const neither = Promise.all([probe, reprobe]).then((): Settled => ({ kind: 'refused', error: refusal }));
    settled = await Promise.race([lateModern, modernAnswer(reprobe, 're-probed'), neither]);
  }
  if (settled.kind === 'modern') {
    // The SDK client's initialize is abandoned: its answer, if one comes, is recorded and dropped.
    rpc.onStray = () => {};
    rpc.onClosed = () => {};
    await session.client.close();
    return modern(rpc, settled.result, settled.chosenBy, emit);
  }
  if (settled.kind === 'initialized') {
    // A server that answers in order answered the probe before initialize: what it answered belongs in the reason.
    const ended = probeEnded as Probe | null;
    const reason = ended === null ? timeoutDetail : `${timeoutDetail}; then ${ended.ok ? offersModern(ended.result) : ended.detail}`;
    rpc.detach(); // the probe's answer, if it ever comes, is recorded only
    return legacyChosen(session, 'fell-back', reason);
  }
  rpc.detach();
  await transport.close();
  const ended = probeEnded as Probe | null;
  if (ended !== null && !ended.ok && ended.outcome === 'closed') throw closedOnProbe(settled.error);
  throw settled.error;
}

/** Resolves with the modern era when the probe's answer offers it; never resolves otherwise (the other side of the race decides). */
function modernAnswer(probe: Promise<Probe>, chosenBy: EraChoice): Promise<Settled> {
  return new Promise<Settled>((resolve) => {
    void probe.then((p) => {
      if (p.ok && offersModern(p.result) === null) resolve({ kind: 'modern', result: p.result, chosenBy });
    });
  });
}

/** A -32022 whose data names 2026-07-28 among the supported versions. */
function lockedToModern(error: unknown): boolean {
  if (!(error instanceof McpError) || error.code !== UNSUPPORTED_PROTOCOL_VERSION) return false;
  const supported = (error.data as { supported?: unknown } | undefined)?.supported;
  return Array.isArray(supported) && supported.includes(MODERN_REVISION);
}

function closedOnProbe(error: unknown): Error {
  return new Error(
    `the server closed the connection on the server/discover probe, so initialize could not follow (${errorMessage(error)}); pin protocol: 2025-11-25 for this server`,
  );
}

async function legacy(transport: RecordingStdioTransport, command: StartCommand, chosenBy: EraChoice, fallbackReason?: string): Promise<EraChosen> {
  const session = new LegacySession();
  await session.connect(transport, command.callTimeoutMs);
  return legacyChosen(session, chosenBy, fallbackReason);
}

function legacyChosen(session: LegacySession, chosenBy: EraChoice, fallbackReason?: string): EraChosen {
  const info = session.serverInfo();
  return {
    session,
    era: LEGACY_REVISION,
    chosenBy,
    ...(fallbackReason !== undefined ? { fallbackReason } : {}),
    serverName: info.name,
    serverVersion: info.version,
    // Read off the wire by session.ts: the SDK 1 Client does not expose the negotiated version.
    protocolVersion: null,
  };
}

function modern(rpc: RpcRequester, result: Record<string, unknown>, chosenBy: EraChoice, emit: (event: ClientEvent) => void): EraChosen {
  if (chosenBy !== 'pinned') emit({ type: 'era-probe', t: monoNow(), outcome: 'answered', detail: `server/discover offered ${versionsOf(result).join(', ')}` });
  const meta = (result._meta ?? {}) as Record<string, unknown>;
  const info = (result.serverInfo ?? meta[SERVER_INFO_META_KEY] ?? {}) as { name?: unknown; version?: unknown };
  return {
    session: new ModernSession(rpc),
    era: MODERN_REVISION,
    chosenBy,
    serverName: typeof info.name === 'string' ? info.name : null,
    serverVersion: typeof info.version === 'string' ? info.version : null,
    protocolVersion: MODERN_REVISION,
  };
}

async function discover(rpc: RpcRequester, timeoutMs: number): Promise<Probe> {
  try {
    return { ok: true, result: await rpc.request('server/discover', { _meta: modernEnvelope() }, timeoutMs) };
  } catch (error) {
    // EPIPE on the probe's write comes as RpcClosed too (rpc-requester.ts): the server closed the connection.
    const outcome = error instanceof RpcTimeout ? 'timeout' : error instanceof RpcClosed ? 'closed' : 'error';
    return { ok: false, outcome, detail: errorMessage(error) };
  }
}

/** Null when the discover result offers 2026-07-28; else why it does not count as an answer. */
function offersModern(result: Record<string, unknown>): string | null {
  const versions = versionsOf(result);
  return versions.includes(MODERN_REVISION)
    ? null
    : `server/discover offered ${versions.length > 0 ? versions.join(', ') : 'no protocol version'}, not ${MODERN_REVISION}`;
}

function versionsOf(result: Record<string, unknown>): string[] {
  return Array.isArray(result.supportedVersions) ? result.supportedVersions.filter((v): v is string => typeof v === 'string') : [];
}
