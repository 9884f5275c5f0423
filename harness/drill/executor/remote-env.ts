/**
 * What the drill remote adds to a subject's environment besides its URL and token: the
 * variables that make it trust the run's CA (unless `remote.trust: false`) and those that send
 * its outgoing HTTP(S) through the intercept proxy (when the scenario lists origins). Both
 * may add JVM options; JAVA_TOOL_OPTIONS gets them after whatever the scenario's env has.
 */
import type { Scenario } from '../../config/index.js';
import { proxyEnv } from '../../remote/proxy/proxy-env.js';
import { trustEnv, type EnvPart } from '../../remote/tls/trust-env.js';
import type { RemoteLink } from './remote-link.js';

export function remoteEnv(scenario: Scenario, link: RemoteLink): Record<string, string> {
  const env = scenario.subject.env;
  const parts: EnvPart[] = [];
  if (scenario.remote.trust && link.trustFiles) parts.push(trustEnv(link.trustFiles, env));
  if (link.proxyUrl) parts.push(proxyEnv(link.proxyUrl, env));
  const out: Record<string, string> = Object.assign({}, ...parts.map((p) => p.vars));
  const java = parts.flatMap((p) => p.java);
  if (java.length > 0) out.JAVA_TOOL_OPTIONS = [env.JAVA_TOOL_OPTIONS?.trim(), ...java].filter((s) => s).join(' ');
  return out;
}
