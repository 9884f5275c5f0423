/** The survey's install cache outside the project, a folder per registry and pinned version; `CRASH_DRILL_SURVEY_CACHE` moves it. */
import { homedir } from 'node:os';
import { join } from 'node:path';

export function surveyCacheRoot(): string {
  const given = process.env.CRASH_DRILL_SURVEY_CACHE;
  if (given) return given;
  const xdg = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(xdg, 'mcp-crash-drill', 'survey');
}

/** npm's own cache for every npm entry: tarballs checked against the registry's integrity, and npx's installs. */
export function npmCacheDir(root = surveyCacheRoot()): string {
  return join(root, 'npm-cache');
}
