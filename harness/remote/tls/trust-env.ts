/**
 * The variables that make a subject trust the run's CA; a scenario's own value wins, except
 * JAVA_TOOL_OPTIONS (a list: ours goes after). SSL_CERT_FILE: OpenSSL (Python, Ruby, PHP, curl),
 * Go (crypto/x509 root_unix.go), rustls-native-certs. NODE_EXTRA_CA_CERTS: Node, added to its
 * own CAs. REQUESTS_CA_BUNDLE, CURL_CA_BUNDLE: requests, curl. JAVA_TOOL_OPTIONS: every JVM.
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
