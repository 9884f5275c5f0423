/**
 * Claude Code's ~/.claude.json: user-scoped servers at the top (`mcpServers`) and local-scoped
 * ones per project (`projects[PATH].mcpServers`), which Claude Code starts with the project
 * folder as the working folder (and as the base of a relative command). Each project's own
 * .mcp.json (project scope) is read too: `orphans` from a cron job runs in no project folder.
 */
import path from 'node:path';
import { fieldPath, readEntryMap } from '../entry.js';
import { describeType } from '../read-json.js';
import type { ConfigFile } from '../types.js';
import type { ReaderOut } from './reader.js';

export function readClaudeCodeUser(config: ConfigFile, value: Record<string, unknown>, out: ReaderOut): void {
  const common = { client: config.client, file: config.file, variables: 'shell' as const };
  readEntryMap(value.mcpServers, { ...common, field: 'mcpServers', workspace: null, base: path.dirname(config.file) }, out);
  const projects = value.projects;
  if (projects === undefined) return;
  if (projects === null || typeof projects !== 'object' || Array.isArray(projects)) {
    out.problems.push({ file: config.file, field: 'projects', message: `expected an object of project folders, got ${describeType(projects)}` });
    return;
  }
  for (const [folder, project] of Object.entries(projects)) {
    if (!path.isAbsolute(folder)) continue;
    (out.more ??= []).push({ client: 'claude-code', file: path.join(folder, '.mcp.json'), format: 'mcp-servers', workspace: folder, comments: false });
    if (project === null || typeof project !== 'object') continue;
    const field = `${fieldPath('projects', folder)}.mcpServers`;
    readEntryMap((project as Record<string, unknown>).mcpServers, { ...common, field, workspace: folder, base: folder }, out);
  }
}
