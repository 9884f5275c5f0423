/**
 * The variables a subject gets to trust the run's CA and to use the intercept proxy: each
 * runtime's own, the scenario's value kept where it set one, JVM options after its own.
 */
import { describe, expect, it } from 'vitest';
import { proxyEnv } from '../../../harness/remote/proxy/proxy-env.js';
import { trustEnv } from '../../../harness/remote/tls/trust-env.js';
import type { TrustFiles } from '../../../harness/remote/tls/trust-files.js';

const FILES: TrustFiles = { caFile: '/r/ca.pem', bundleFile: '/r/bundle.pem', truststore: '/r/truststore.p12', systemSource: 'x', madeInMs: 0 };

describe('trust and proxy variables', () => {
  it('names the bundle for OpenSSL, Go, requests and curl, the CA alone for Node, the truststore for the JVM', () => {
    expect(trustEnv(FILES, {})).toEqual({
      vars: { SSL_CERT_FILE: '/r/bundle.pem', NODE_EXTRA_CA_CERTS: '/r/ca.pem', REQUESTS_CA_BUNDLE: '/r/bundle.pem', CURL_CA_BUNDLE: '/r/bundle.pem' },
      java: ['-Djavax.net.ssl.trustStore=/r/truststore.p12', '-Djavax.net.ssl.trustStorePassword=changeit'],
    });
  });

  it("keeps the scenario's own choice, and gives no JVM option without a truststore", () => {
    const { vars, java } = trustEnv({ ...FILES, truststore: null }, { SSL_CERT_FILE: '/mine.pem' });
    expect(vars.SSL_CERT_FILE).toBeUndefined();
    expect(vars.CURL_CA_BUNDLE).toBe('/r/bundle.pem');
    expect(java).toEqual([]);
  });

  it('sends every scheme through the proxy in both spellings, keeps loopback off it, and tells the JVM', () => {
    const { vars, java } = proxyEnv('http://127.0.0.1:4567', { NO_PROXY: 'internal.example' });
    for (const name of ['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY', 'https_proxy', 'http_proxy', 'all_proxy']) expect(vars[name]).toBe('http://127.0.0.1:4567');
    expect(vars.NO_PROXY).toBe('internal.example,127.0.0.1,localhost,::1');
    expect(vars.no_proxy).toBe(vars.NO_PROXY);
    expect(java).toEqual([
      '-Dhttps.proxyHost=127.0.0.1',
      '-Dhttps.proxyPort=4567',
      '-Dhttp.proxyHost=127.0.0.1',
      '-Dhttp.proxyPort=4567',
      '-Dhttp.nonProxyHosts=localhost|127.0.0.1|[::1]',
    ]);
    expect(proxyEnv('http://127.0.0.1:4567', { HTTPS_PROXY: 'http://mine:1' }).vars.HTTPS_PROXY).toBeUndefined();
  });
});
