/** The 2026-07-28 per-request `_meta` envelope (keys as @modelcontextprotocol/core 2.4.0 spells them), here so the client need not load SDK 2. */
export const MODERN_REVISION = '2026-07-28';
export const LEGACY_REVISION = '2025-11-25';

export const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';
export const CLIENT_INFO_META_KEY = 'io.modelcontextprotocol/clientInfo';
export const CLIENT_CAPABILITIES_META_KEY = 'io.modelcontextprotocol/clientCapabilities';
export const SERVER_INFO_META_KEY = 'io.modelcontextprotocol/serverInfo';
export const SUBSCRIPTION_ID_META_KEY = 'io.modelcontextprotocol/subscriptionId';

/** The JSON-RPC error code of UnsupportedProtocolVersion in 2026-07-28 (recorded, never keyed on). */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

export const CLIENT_INFO = { name: 'crash-drill', version: '0.1.0' };

export function modernEnvelope(): Record<string, unknown> {
  return {
    [PROTOCOL_VERSION_META_KEY]: MODERN_REVISION,
    [CLIENT_INFO_META_KEY]: CLIENT_INFO,
    [CLIENT_CAPABILITIES_META_KEY]: {},
  };
}
