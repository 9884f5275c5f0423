/** What the three live-machine commands share on the command line. */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { loadClientConfigs } from '../mcp-clients/readers/load.js';
import { placesFrom } from '../mcp-clients/locations.js';
import { ConfigMatcher } from '../mcp-clients/matcher.js';
import type { ClientConfigs } from '../mcp-clients/types.js';
import { BACKEND_NAMES } from './backend.js';
import { configPatterns } from './config-match.js';
import { DEFAULT_PATTERNS, userPattern, type ServerPattern } from './patterns.js';

export function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`expected a number of seconds (0 or more), got "${value}"`);
  return n;
}

export function pidArgument(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1)
    throw new InvalidArgumentError(`expected a process id (a positive whole number), got "${value}"`);
  return n;
}

export const backendOption = () =>
  new Option('--backend <name>', 'how to read the machine (default: /proc where it exists, else ps + lsof)').choices(BACKEND_NAMES as string[]);

export const repeatable = (v: string, p: string[] = []) => [...p, v];

/** The defaults (unless --no-defaults), then the config's orphans.match, then each --match. */
export async function serverPatterns(options: { match?: string[]; defaults: boolean; config?: string }): Promise<ServerPattern[]> {
  return [
    ...(options.defaults ? DEFAULT_PATTERNS : []),
    ...(await configPatterns(options.config)),
    ...(options.match ?? []).map((m, i) => userPattern(m, 'flag', `--match #${i + 1}`)),
  ];
}

export interface ClientConfigOptions {
  /** --client-config <file>, repeatable: a configuration file of any client. */
  clientConfig?: string[];
  /** false with --no-client-configs: do not read the clients' documented locations. */
  clientConfigs?: boolean;
}

/** --client-config and --no-client-configs, on orphans, inspect and contain. */
export function addClientConfigOptions(command: Command): Command {
  return command
    .option('--client-config <file>', "an MCP client's configuration file to match processes against, beside the documented ones; repeatable", repeatable)
    .option('--no-client-configs', "do not read the MCP clients' configuration files at their documented locations");
}

/**
 * The machine's MCP client configurations (harness/mcp-clients): the documented locations under
 * HOME, XDG_CONFIG_HOME and the working folder, and each --client-config file.
 */
export function clientConfigs(
  options: ClientConfigOptions,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): { matcher: ConfigMatcher; loaded: ClientConfigs } {
  const places = placesFrom(env, cwd);
  const loaded = loadClientConfigs({ places, discover: options.clientConfigs !== false, files: options.clientConfig });
  return { loaded, matcher: new ConfigMatcher(loaded.servers, { env, home: places.home }) };
}
