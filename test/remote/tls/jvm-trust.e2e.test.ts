/**
 * The JVM's way: JAVA_TOOL_OPTIONS with the run's truststore (the JDK's CAs plus the run's, made
 * by keytool) and the proxy properties. A real JVM (java, single-file source) reaches the
 * remote's HTTPS listener directly (loopback is in http.nonProxyHosts) and a hard-coded host
 * through the intercept proxy, with HttpsURLConnection and no setting of its own; without the
 * truststore its TLS refuses the remote.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { newRunId } from '../../../harness/observe/index.js';
import { proxyEnv } from '../../../harness/remote/proxy/proxy-env.js';
import { findJdk } from '../../../harness/remote/tls/jvm-truststore.js';
import { trustEnv } from '../../../harness/remote/tls/trust-env.js';
import { registerRun } from '../../../harness/registry/index.js';
import { RunTls } from '../../../harness/run/run-tls.js';
import { tempDir } from '../../support/temp-dir.js';
import { cleanup, startRemote } from '../helpers.js';

const run = promisify(execFile);
const jdk = findJdk();
if (!jdk) console.warn('[skip] test/remote/tls/jvm-trust.e2e.test.ts: no JDK (java with keytool) on PATH');

const PROBE = `import java.net.*;
public class Probe {
  public static void main(String[] args) throws Exception {
    HttpURLConnection c = (HttpURLConnection) new URL(args[0]).openConnection();
    c.setRequestProperty("Authorization", "Bearer " + args[1]);
    System.out.println(c.getResponseCode());
  }
}
`;

describe.runIf(jdk !== null)('a JVM subject', () => {
  const runId = newRunId();
  const registration = registerRun(runId);
  const tls = new RunTls(runId);
  afterAll(async () => {
    await cleanup();
    await tls.close();
    registration.unregister();
  });

  it('trusts the run CA and uses the proxy through JAVA_TOOL_OPTIONS alone', async () => {
    const remote = await startRemote({ ca: await tls.ca() });
    const files = await tls.files();
    const proxy = await remote.proxyFor(['https://api.example.invalid']);
    const { token } = remote.openSession('d1');
    const probe = join(tempDir(), 'Probe.java');
    writeFileSync(probe, PROBE);
    const java = (url: string, options: string[]) =>
      run('java', ['-XX:-UsePerfData', probe, url, token], { env: { PATH: process.env.PATH, JAVA_TOOL_OPTIONS: options.join(' ') } }).then(
        (r) => r.stdout.trim(),
        (e: { stderr: string }) => `failed: ${/PKIX|SSLHandshakeException/.test(e.stderr) ? 'PKIX' : e.stderr}`,
      );
    const options = [...trustEnv(files, {}).java, ...proxyEnv(proxy.url, {}).java];
    expect(await java(`${remote.httpsUrl}/whoami`, options)).toBe('200');
    expect(await java('https://api.example.invalid/whoami', options)).toBe('200');
    expect(await java(`${remote.httpsUrl}/whoami`, proxyEnv(proxy.url, {}).java)).toBe('failed: PKIX');
    expect(remote.requests({ drillId: 'd1' }).map((r) => [r.path, r.outcome, r.origin ?? 'direct'])).toEqual([
      ['/whoami', 'ok', 'direct'],
      ['/whoami', 'ok', 'https://api.example.invalid'],
    ]);
  }, 120_000);
});
