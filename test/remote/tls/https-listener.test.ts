/**
 * The run's CA and the remote's HTTPS listener, checked by real TLS clients: Node's and curl
 * (OpenSSL). A client that trusts the run's CA reaches the remote at 127.0.0.1 and localhost and
 * is journalled like a plain HTTP one (its process attributed); one that does not is refused by
 * its own TLS stack before anything is sent. A certificate issued for a host names only it.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { connect as netConnect } from 'node:net';
import { join } from 'node:path';
import { checkServerIdentity, connect } from 'node:tls';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { RunCa } from '../../../harness/remote/tls/run-ca.js';
import { tempDir } from '../../support/temp-dir.js';
import { cleanup, startRemote } from '../helpers.js';

afterEach(cleanup);
const run = promisify(execFile);

function get(url: string, headers: Record<string, string>, ca: string | undefined): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers, ca }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('the remote over HTTPS', () => {
  it('answers a client that trusts the run CA, at 127.0.0.1 and localhost, and journals it like any request', async () => {
    const ca = await RunCa.create('test');
    const remote = await startRemote({ ca });
    const { token } = remote.openSession('d1');
    expect(remote.httpsUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const port = new URL(remote.httpsUrl!).port;
    for (const host of ['127.0.0.1', 'localhost']) {
      const answer = await get(`https://${host}:${port}/whoami`, { authorization: `Bearer ${token}` }, ca.certPem);
      expect(answer).toMatchObject({ status: 200 });
      expect(JSON.parse(answer.body)).toMatchObject({ drill: 'd1', credential: 'session' });
    }
    const requests = remote.requests({ drillId: 'd1' });
    expect(requests.map((r) => [r.method, r.path, r.credential, r.outcome, r.attribution])).toEqual([
      ['GET', '/whoami', 'session', 'ok', 'self'],
      ['GET', '/whoami', 'session', 'ok', 'self'],
    ]);
  });

  it('curl (OpenSSL) trusts it through --cacert, is attributed by its pid, and refuses it without', async () => {
    const ca = await RunCa.create('test');
    const remote = await startRemote({ ca });
    const { token } = remote.openSession('d1');
    const caFile = join(tempDir(), 'ca.pem');
    writeFileSync(caFile, ca.certPem);
    const trusted = await run('curl', ['-sS', '--cacert', caFile, '-H', `Authorization: Bearer ${token}`, `${remote.httpsUrl}/whoami`]);
    expect(JSON.parse(trusted.stdout)).toMatchObject({ drill: 'd1' });
    const [record] = remote.requests({ drillId: 'd1' });
    expect(record.attribution).toBe('scan');
    expect(record.process?.pid).toBeGreaterThan(0);
    // Trusting another CA only (another run's), the handshake fails in curl.
    const otherFile = join(tempDir(), 'other.pem');
    writeFileSync(otherFile, (await RunCa.create('other')).certPem);
    const refused = await run('curl', ['-sS', '--cacert', otherFile, `${remote.httpsUrl}/whoami`]).catch((e: { code: number; stderr: string }) => e);
    expect('code' in refused && refused.code).toBe(60); // CURLE_PEER_FAILED_VERIFICATION
    expect(remote.requests({ drillId: 'd1' })).toHaveLength(1);
  });

  it("a host's certificate names that host only, and the CA file holds no key", async () => {
    const ca = await RunCa.create('test');
    expect(ca.certPem).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(ca.certPem).not.toMatch(/PRIVATE KEY/);
    expect(Buffer.from(ca.certBase64, 'base64').toString()).toBe(ca.certPem);
    const remote = await startRemote({ ca });
    const proxy = await remote.proxyFor(['https://api.example.invalid']);
    // A TLS handshake through the proxy's tunnel for the listed host: its certificate is for it.
    const peer = await new Promise<import('node:tls').PeerCertificate>((resolve, reject) => {
      const socket = netConnect({ host: '127.0.0.1', port: proxy.port });
      socket.once('error', reject);
      socket.write('CONNECT api.example.invalid:443 HTTP/1.1\r\nHost: api.example.invalid:443\r\n\r\n');
      socket.once('data', (head) => {
        expect(head.toString()).toMatch(/^HTTP\/1\.1 200/);
        const tls = connect({ socket, servername: 'api.example.invalid', ca: ca.certPem }, () => {
          resolve(tls.getPeerCertificate());
          tls.destroy();
        });
        tls.once('error', reject);
      });
    });
    expect(peer.subjectaltname).toBe('DNS:api.example.invalid');
    expect(checkServerIdentity('api.example.invalid', peer)).toBeUndefined();
    expect(checkServerIdentity('api.example.com', peer)).toBeInstanceOf(Error);
  });
});
