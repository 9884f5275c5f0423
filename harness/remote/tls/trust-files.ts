/**
 * The run's trust files (no private key) in its private `<run registry>/runs/<run>.tls/`, written
 * at the first drill that needs them: `ca.pem`, `bundle.pem` (system CAs then the run's), `truststore.p12`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTruststore } from './jvm-truststore.js';
import type { RunCa } from './run-ca.js';
import { systemCas } from './system-cas.js';

export interface TrustFiles {
  caFile: string;
  bundleFile: string;
  /** Null without a JDK on PATH. */
  truststore: string | null;
  /** Where the system CAs of the bundle came from. */
  systemSource: string;
  /** How long writing them took (the truststore is one keytool run), ms. */
  madeInMs: number;
}

export async function writeTrustFiles(dir: string, ca: RunCa): Promise<TrustFiles> {
  const started = performance.now();
  const caFile = join(dir, 'ca.pem');
  const bundleFile = join(dir, 'bundle.pem');
  // 'wx': made here, never an existing file (the folder is the run's own, fresh).
  writeFileSync(caFile, ca.certPem, { mode: 0o600, flag: 'wx' });
  const system = systemCas();
  writeFileSync(bundleFile, `${system.pem}${ca.certPem}`, { mode: 0o600, flag: 'wx' });
  const truststore = await makeTruststore(join(dir, 'truststore.p12'), caFile);
  return { caFile, bundleFile, truststore, systemSource: system.source, madeInMs: performance.now() - started };
}
