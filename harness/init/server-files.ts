/** The scenario files `init` writes for one server, in load order, each parsed as `run` would before anything is written. */
import path from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { ConfigError } from '../config/index.js';
import { parseScenario } from '../config/index.js';
import { HarnessBug } from '../util/errors.js';
import type { ServerCommand } from './list-tools.js';
import { INIT_MODES, isWriteCapable, LIFECYCLE_POINTS, lifecycleText, scenarioIdFor, TOOL_POINTS, toolScenarioText } from './render.js';
import type { PlannedFile } from './write-files.js';

export const LIFECYCLE_FILE = 'lifecycle.yaml';
export const MAY_WRITE_DIR = 'may-write';
export const READ_ONLY_DIR = 'read-only';

export interface ServerFilesInput {
  tools: readonly Tool[];
  server: ServerCommand;
  /** absolute folder of this server's scenarios */
  dir: string;
  projectDir: string;
  /** Put before every scenario id ('' for a lone server; `<entry>-` for init --from-client). */
  idPrefix: string;
  /** Scenario ids taken so far in this init (ids are unique across every file a run loads). */
  takenIds: Set<string>;
  subjectName?: string;
  subjectEnv?: Record<string, string>;
  /** Names the server in the message of a scenario that does not parse (a bug of init's). */
  label: string;
}

/** A file to write, with what it drills. */
export interface ServerFile extends PlannedFile {
  id: string;
  /** The tool it drills, or null for the lifecycle scenario. */
  tool: Tool | null;
  drills: number;
}

export function serverFiles(input: ServerFilesInput): ServerFile[] {
  const common = { server: input.server, projectDir: input.projectDir, subjectName: input.subjectName, subjectEnv: input.subjectEnv };
  const lifecycleId = scenarioIdFor(`${input.idPrefix}lifecycle`, input.takenIds);
  const files: ServerFile[] = [
    {
      file: path.join(input.dir, LIFECYCLE_FILE),
      text: lifecycleText({ ...common, fileDir: input.dir, id: lifecycleId, tools: input.tools }),
      id: lifecycleId,
      tool: null,
      drills: LIFECYCLE_POINTS.length * INIT_MODES.length,
    },
  ];
  const names = new Set<string>();
  const tools = [...input.tools.filter(isWriteCapable), ...input.tools.filter((t) => !isWriteCapable(t))];
  for (const tool of tools) {
    const name = scenarioIdFor(tool.name, names);
    const id = scenarioIdFor(`${input.idPrefix}${name}`, input.takenIds);
    const fileDir = path.join(input.dir, isWriteCapable(tool) ? MAY_WRITE_DIR : READ_ONLY_DIR);
    const text = toolScenarioText({ ...common, fileDir, id, tool });
    files.push({ file: path.join(fileDir, `${name}.yaml`), text, id, tool, drills: TOOL_POINTS.length * INIT_MODES.length });
  }
  for (const f of files) {
    try {
      parseScenario(f.text, f.file);
    } catch (error) {
      // A scenario init wrote must load: anything else is a bug here, not the user's.
      const what = f.tool ? `tool "${f.tool.name}"` : 'the lifecycle scenario';
      if (error instanceof ConfigError) throw new HarnessBug(`crash-drill init wrote an invalid scenario for ${input.label}, ${what}: ${error.message}`);
      throw error;
    }
  }
  // The order a run loads them in: code-unit order of the path, as find-files.ts sorts.
  return files.sort((a, b) => (a.file === b.file ? 0 : a.file < b.file ? -1 : 1));
}
