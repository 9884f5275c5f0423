/**
 * Which era the drill speaks, and how that was decided. `auto` follows the 2026-07-28 stdio
 * backward-compatibility rule: probe with server/discover first and fall back to initialize on
 * ANY error or a timeout, never on one particular error code (an UnsupportedProtocolVersion
 * -32022, a -32601 from an SDK 1 server, an answer without 2026-07-28 all fall back alike).
 * The probe runs on the server under test itself, on the same pipes: no sibling process.
 */
import { monoNow } from '../util/clock.js';
import { errorMessage } from '../util/errors.js';
import { LEGACY_REVISION, modernEnvelope, MODERN_REVISION, SERVER_INFO_META_KEY } from './envelope.js';
import type { EraSession } from './era-session.js';
import { LegacySession } from './legacy-session.js';
import { ModernSession } from './modern-session.js';
import type { ClientEvent, EraChoice, ProtocolEra, StartCommand } from './protocol.js';
import type { RecordingStdioTransport } from './recording-transport.js';
import { RpcClosed, RpcRequester, RpcTimeout } from './rpc-requester.js';

export const DEFAULT_DISCOVER_TIMEOUT_MS = 2_000;

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
  const pinned = protocol === MODERN_REVISION;
  const probe = await discover(rpc, pinned ? command.callTimeoutMs : (command.discoverTimeoutMs ?? DEFAULT_DISCOVER_TIMEOUT_MS));
  const offered = probe.ok ? offersModern(probe.result) : null;
  if (probe.ok && offered === null) return modern(rpc, probe.result, pinned ? 'pinned' : 'probed', emit);
  const detail = probe.ok ? (offered as string) : probe.detail;
  if (!pinned) emit({ type: 'era-probe', t: monoNow(), outcome: probe.ok ? 'error' : probe.outcome, detail });
  if (pinned) throw new Error(`protocol 2026-07-28 is pinned and server/discover failed: ${detail}`);
  rpc.detach();
  transport.onmessage = undefined;
  transport.onclose = undefined;
  transport.onerror = undefined;
  try {
    return await legacy(transport, command, 'fell-back', detail);
  } catch (error) {
    if (!probe.ok && probe.outcome === 'closed') {
      throw new Error(
        `the server closed the connection on the server/discover probe, so initialize could not follow (${errorMessage(error)}); pin protocol: 2025-11-25 for this server`,
      );
    }
    throw error;
  }
}

async function legacy(transport: RecordingStdioTransport, command: StartCommand, chosenBy: EraChoice, fallbackReason?: string): Promise<EraChosen> {
  const session = new LegacySession();
  await session.connect(transport, command.callTimeoutMs);
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
  if (chosenBy === 'probed') emit({ type: 'era-probe', t: monoNow(), outcome: 'answered', detail: `server/discover offered ${versionsOf(result).join(', ')}` });
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
    // EPIPE on the probe's write is the same news as the end of its stdout, come first: the server closed the connection.
    const closed = error instanceof RpcClosed || (error as NodeJS.ErrnoException | null)?.code === 'EPIPE';
    const outcome = error instanceof RpcTimeout ? 'timeout' : closed ? 'closed' : 'error';
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
