/**
 * A JVM truststore: a copy of the JDK's `<java.home>/lib/security/cacerts` (password `changeit`)
 * with the run's CA imported by keytool. `-Djavax.net.ssl.trustStore` (trust-env.ts) replaces the
 * default store, hence the copy.
 */
import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { findOnPath } from './find-on-path.js';

const run = promisify(execFile);

export const TRUSTSTORE_PASSWORD = 'changeit';

/** The JDK that `java` on PATH belongs to: its keytool and its cacerts. */
export function findJdk(env: NodeJS.ProcessEnv = process.env): { keytool: string; cacerts: string } | null {
  const java = findOnPath('java', env);
  if (!java) return null;
  const bin = dirname(realpathSync(java));
  const keytool = join(bin, 'keytool');
  const cacerts = join(bin, '..', 'lib', 'security', 'cacerts');
  return existsSync(keytool) && existsSync(cacerts) ? { keytool, cacerts } : null;
}

/** Writes `file` (0600) from the JDK's cacerts plus the CA in `caFile`; null when there is no JDK. */
export async function makeTruststore(file: string, caFile: string, env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  const jdk = findJdk(env);
  if (!jdk) return null;
  copyFileSync(jdk.cacerts, file);
  // -J-XX:-UsePerfData: no /tmp/hsperfdata_<user>, which HotSpot makes in /tmp whatever TMPDIR says
  // and leaves (openjdk/jdk17u-dev 192d9c27, src/hotspot/os/posix/perfMemory_posix.cpp:
  // get_user_tmp_dir, create_sharedmem_file, delete_shared_memory).
  const args = [
    '-J-XX:-UsePerfData',
    '-importcert',
    '-noprompt',
    '-alias',
    'crash-drill-run-ca',
    '-file',
    caFile,
    '-keystore',
    file,
    '-storepass',
    TRUSTSTORE_PASSWORD,
  ];
  // keytool is a JVM: keep the subject's JAVA_TOOL_OPTIONS and ours out of its way.
  const { JAVA_TOOL_OPTIONS: _ignored, ...rest } = env;
  await run(jdk.keytool, args, { env: rest, timeout: 60_000 });
  chmodSync(file, 0o600); // the copy took cacerts' mode, and keytool writes the file anew
  return file;
}
