/** Spec and conformance requirements that several checks or statements test, in their sources' words; practice ones live beside their check. */
import { conformance, spec } from './requirement.js';

export const EXITS_ON_EOF = spec(
  'stdio-server-exits-on-eof',
  'SHOULD',
  'basic/transports/stdio',
  'shutdown',
  'Servers SHOULD exit promptly when their standard input is closed or reads return end-of-file. This is the primary graceful-shutdown signal and the only portable one.',
);

export const STDOUT_ONLY_MESSAGES = spec(
  'stdio-server-stdout-only-messages',
  'MUST',
  'basic/transports/stdio',
  null,
  'The server MUST NOT write anything to its stdout that is not a valid MCP message.',
);

/** The stdio cancellation row of sep-2575 (src/seps/sep-2575.yaml): a SHOULD and a MUST NOT in one sentence. */
const CANCEL_ROW = 'Servers SHOULD stop work on a cancelled request as soon as practical and MUST NOT send any further messages for it [stdio].';
const CANCEL_ID = 'sep-2575-stdio-server-stops-on-cancel';
const CANCEL_FILE = 'src/seps/sep-2575.yaml';

export const STOPS_ON_CANCEL = conformance(CANCEL_ID, 'SHOULD', 'cancellation', CANCEL_ROW, CANCEL_FILE);
export const SILENT_ON_CANCEL = conformance(CANCEL_ID, 'MUST', 'cancellation', CANCEL_ROW, CANCEL_FILE);

export const CANCEL_RACES_GRACEFUL = spec(
  'cancel-races-handled-gracefully',
  'MUST',
  'basic/patterns/cancellation',
  'timing-considerations',
  'Due to network latency, cancellation notifications may arrive after request processing has completed. Both parties MUST handle these race conditions gracefully.',
);
