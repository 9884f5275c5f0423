/**
 * A tiny Node program for the pass-through tests: it requests the URL (its one argument, `process.argv[1]` under `-e`) once with fetch and
 * once with http.request, and prints one JSON line with what each got (status and body, or
 * the error's name and code). Plain JS, run with `node --input-type=module -e`.
 */
export const PROBE_SOURCE = `
import http from 'node:http';
const url = process.argv[1];
const out = {};
try {
  const r = await fetch(url, { method: 'POST', body: 'f', headers: { 'idempotency-key': 'probe-fetch' } });
  out.fetch = { status: r.status, body: await r.text() };
} catch (e) { out.fetch = { name: e.name, error: e.cause?.code ?? e.code ?? e.message, message: e.cause?.message ?? e.message }; }
out.http = await new Promise((resolve) => {
  const req = http.request(url, { method: 'POST', headers: { 'idempotency-key': 'probe-http' } }, (res) => {
    let body = ''; res.setEncoding('utf8'); res.on('data', (c) => (body += c)); res.on('end', () => resolve({ status: res.statusCode, body }));
  });
  req.on('error', (e) => resolve({ name: e.name, error: e.code ?? e.message, message: e.message }));
  req.end('h');
});
process.stdout.write(JSON.stringify(out) + '\\n');
`;

export interface ProbeOutcome {
  status?: number;
  body?: string;
  name?: string;
  error?: string;
  message?: string;
}
