import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { InternalError } from '../util/errors.js';

export const MAX_BODY_BYTES = 1024 * 1024;

export class BodyTooLargeError extends InternalError {
  readonly code = 'REMOTE_BODY_TOO_LARGE';
}

/** Reads the whole body; rejects if the client goes away first or it is too large. */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError(`request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  // for-await ends quietly on an aborted request in some Node versions: check explicitly.
  if (!req.complete) throw new Error('client went away before the body was complete');
  return Buffer.concat(chunks);
}

/** node's IncomingMessage (already read) → a Fetch Request that msw handlers understand. */
export function toFetchRequest(req: IncomingMessage, body: Buffer, url: URL): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    try {
      headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
    } catch {
      // A header undici refuses (e.g. a forbidden or malformed name) is left out.
    }
  }
  const method = (req.method ?? 'GET').toUpperCase();
  const hasBody = method !== 'GET' && method !== 'HEAD' && body.length > 0;
  return new Request(url, { method, headers, body: hasBody ? new Uint8Array(body) : undefined });
}

/** A Fetch Response's headers as node wants them; set-cookie stays a list. */
export function toNodeHeaders(headers: Headers): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  headers.forEach((value, name) => {
    if (name !== 'set-cookie') out[name] = value;
  });
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) out['set-cookie'] = cookies;
  return out;
}
