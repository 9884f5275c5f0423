/**
 * The variables that send a subject's outgoing HTTP(S) through the intercept proxy, and keep
 * its loopback traffic (the drill remote itself, `{{remote.url}}` and `{{remote.httpsUrl}}`)
 * off it. Both spellings are set: curl reads only lower-case `http_proxy`, Go, Python and
 * reqwest read either (Go: golang.org/x/net/http/httpproxy FromEnvironment; Python:
 * urllib.request.getproxies_environment; reqwest: its system proxy from the environment). A JVM
 * reads none of them: it gets the `http(s).proxyHost` properties through JAVA_TOOL_OPTIONS.
 * A scenario that sets one of these itself keeps its value.
 */
import type { EnvPart } from '../tls/trust-env.js';

const LOOPBACK = ['127.0.0.1', 'localhost', '::1'];

export function proxyEnv(proxyUrl: string, scenarioEnv: Record<string, string>): EnvPart {
  const vars: Record<string, string> = {};
  const set = (name: string, value: string): void => {
    if (scenarioEnv[name] === undefined) vars[name] = value;
  };
  for (const name of ['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY']) {
    set(name, proxyUrl);
    set(name.toLowerCase(), proxyUrl);
  }
  const noProxy = [scenarioEnv.NO_PROXY ?? scenarioEnv.no_proxy, ...LOOPBACK].filter((s) => s).join(',');
  vars.NO_PROXY = noProxy;
  vars.no_proxy = noProxy;
  const { hostname, port } = new URL(proxyUrl);
  const java = [
    `-Dhttps.proxyHost=${hostname}`,
    `-Dhttps.proxyPort=${port}`,
    `-Dhttp.proxyHost=${hostname}`,
    `-Dhttp.proxyPort=${port}`,
    // Java's list is |-separated, and it also governs https (java.net docs, "Networking Properties").
    `-Dhttp.nonProxyHosts=${['localhost', '127.0.0.1', '[::1]'].join('|')}`,
  ];
  return { vars, java };
}
