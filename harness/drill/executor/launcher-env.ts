/**
 * npm's launchers resolve a package from their cache first. `npx -y pkg@1.2.3` (and `npm exec`)
 * asks the registry for the package's metadata before it looks in its cache, retrying for over a
 * minute where no network is (measured: 71 s under `unshare -n` for
 * @modelcontextprotocol/server-memory@2026.8.31 already in the cache, 0.6 s with
 * prefer-offline), so a drill of an installed server would time out in its handshake. With
 * `npm_config_prefer_offline` npm uses what its cache holds and still fetches what it lacks
 * (npm's config `prefer-offline`). A value the scenario or the user set is kept.
 */
import { basename } from 'node:path';
import type { SubjectSpec } from '../../config/index.js';

const NPM_OFFLINE = ['npm_config_prefer_offline', 'npm_config_offline', 'npm_config_prefer_online', 'NPM_CONFIG_PREFER_OFFLINE', 'NPM_CONFIG_OFFLINE'];

/** Whether a command line runs a package through npm's launcher (`npx`, `npm exec`, behind `env`). */
export function runsNpmLauncher(command: string, args: readonly string[]): boolean {
  const program = basename(command);
  if (program === 'env') {
    const i = args.findIndex((a) => !a.startsWith('-') && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(a));
    return i >= 0 && runsNpmLauncher(args[i]!, args.slice(i + 1));
  }
  return program === 'npx' || (program === 'npm' && (args[0] === 'exec' || args[0] === 'x'));
}

export function launcherEnv(subject: Pick<SubjectSpec, 'command' | 'args' | 'env'>, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  if (!runsNpmLauncher(subject.command, subject.args)) return {};
  if (NPM_OFFLINE.some((name) => subject.env[name] !== undefined || env[name] !== undefined)) return {};
  return { npm_config_prefer_offline: 'true' };
}
