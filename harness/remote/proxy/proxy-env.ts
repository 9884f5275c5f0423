/**
 * The variables that send a subject's outgoing HTTP(S) through the intercept proxy and keep its
 * loopback traffic off it. Both spellings: curl reads only lower-case `http_proxy`; Go (x/net
 * httpproxy FromEnvironment), Python (urllib.request.getproxies_environment) and reqwest either.
 * A JVM gets `http(s).proxyHost` through JAVA_TOOL_OPTIONS. A scenario's own value is kept.
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
