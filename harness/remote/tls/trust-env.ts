/**
 * The variables that make a subject trust the run's CA, each runtime's own way. Where the
 * scenario's env sets one already, the scenario wins (its author chose that file), except
 * JAVA_TOOL_OPTIONS, which is a list: ours is added after theirs.
 *
 * | variable | read by |
 * | --- | --- |
 * | SSL_CERT_FILE | OpenSSL (Python's ssl, Ruby, PHP, curl built on OpenSSL), Go (crypto/x509 root_unix.go), rustls-native-certs (reqwest's native roots) |
 * | NODE_EXTRA_CA_CERTS | Node: added to its built-in CAs, so only the run's CA |
 * | REQUESTS_CA_BUNDLE | Python requests |
 * | CURL_CA_BUNDLE | curl, and requests again |
 * | JAVA_TOOL_OPTIONS | every JVM: -Djavax.net.ssl.trustStore (and its password) |
 */
import { TRUSTSTORE_PASSWORD } from './jvm-truststore.js';
import type { TrustFiles } from './trust-files.js';

/** Variables for the subject, and JVM options for JAVA_TOOL_OPTIONS (joined in harness/drill/executor/remote-env.ts). */
export interface EnvPart {
  vars: Record<string, string>;
  java: string[];
}

export function trustEnv(files: TrustFiles, scenarioEnv: Record<string, string>): EnvPart {
  const vars: Record<string, string> = {};
  const set = (name: string, value: string): void => {
    if (scenarioEnv[name] === undefined) vars[name] = value;
  };
  set('SSL_CERT_FILE', files.bundleFile);
  set('NODE_EXTRA_CA_CERTS', files.caFile);
  set('REQUESTS_CA_BUNDLE', files.bundleFile);
  set('CURL_CA_BUNDLE', files.bundleFile);
  const java = files.truststore ? [`-Djavax.net.ssl.trustStore=${files.truststore}`, `-Djavax.net.ssl.trustStorePassword=${TRUSTSTORE_PASSWORD}`] : [];
  return { vars, java };
}
