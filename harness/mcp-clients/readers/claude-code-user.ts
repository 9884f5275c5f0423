/**
 * Claude Code's ~/.claude.json: `mcpServers`, and `projects[PATH].mcpServers` started in that
 * folder; each project's .mcp.json too, as `orphans` from cron runs in no project folder.
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
