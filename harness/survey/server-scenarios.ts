/**
 * A catalog entry's scenarios, written by init's code (harness/init/server-files.ts) and narrowed:
 * lifecycle at `idle`, each safe call's at `after-response` (and `child-spawned` where it starts
 * a child). Each text is parsed with run's parser before it is written.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { parseDocument } from 'yaml';
import type { KillMode, KillPoint } from '../config/index.js';
import { parseScenario } from '../config/index.js';
import type { CatalogEntry } from '../config/index.js';
import type { ServerCommand } from '../init/list-tools.js';
import { serverFiles } from '../init/server-files.js';
import { fill } from './needs.js';

export const SURVEY_MODES: readonly KillMode[] = ['crash', 'close', 'stop'];

export interface WrittenScenarios {
  files: string[];
  /** Safe calls the server does not offer: said in the row, not drilled. */
  missingTools: string[];
}

export function writeServerScenarios(input: {
  entry: CatalogEntry;
  tools: readonly Tool[];
  server: ServerCommand;
  subjectEnv: Record<string, string>;
  dir: string;
  projectDir: string;
  values: Record<string, string>;
}): WrittenScenarios {
  const { entry } = input;
  const files = serverFiles({
    tools: input.tools,
    server: input.server,
    dir: input.dir,
    projectDir: input.projectDir,
    idPrefix: `${entry.id}-`,
    takenIds: new Set(),
    subjectName: entry.id,
    subjectEnv: input.subjectEnv,
    label: entry.id,
  });
  const offered = new Set(input.tools.map((t) => t.name));
  const missingTools = entry.calls.filter((c) => !offered.has(c.tool)).map((c) => c.tool);
  const written: string[] = [];
  for (const f of files) {
    const call = f.tool === null ? null : entry.calls.find((c) => c.tool === f.tool!.name);
    if (f.tool !== null && !call) continue;
    const points: KillPoint[] = f.tool === null ? ['idle'] : call?.spawns ? ['after-response', 'child-spawned'] : ['after-response'];
    const doc = parseDocument(f.text);
    doc.setIn(['points'], doc.createNode(points, { flow: true }));
    doc.setIn(['modes'], doc.createNode([...SURVEY_MODES], { flow: true }));
    if (call) doc.setIn(['target', 'args'], doc.createNode(JSON.parse(fill(JSON.stringify(call.args), input.values)) as unknown));
    // The starting expectation's exits-within is init's; the survey's table reads the checks.
    const text = doc.toString({ lineWidth: 0, flowCollectionPadding: false });
    parseScenario(text, f.file);
    mkdirSync(dirname(f.file), { recursive: true });
    writeFileSync(f.file, text);
    written.push(f.file);
  }
  return { files: written, missingTools };
}

export function scenariosDir(serverDir: string): string {
  return join(serverDir, 'scenarios');
}
