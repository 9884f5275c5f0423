/** `init --from-client`: scenarios per configured stdio server, each started once to list its tools; env values are referenced, never copied. */
import path from 'node:path';
import { EXIT, UsageError } from '../util/errors.js';
import { loadClientConfigs } from '../mcp-clients/readers/load.js';
import { placesFrom } from '../mcp-clients/locations.js';
import { CLIENT_IDS, type ClientId, problemLine } from '../mcp-clients/types.js';
import { displayPath } from '../util/paths.js';
import { ClientSubjectError, clientSubject } from './client-subject.js';
import { DEFAULT_INIT_TIMEOUT_MS } from './defaults.js';
import { ListToolsError, listServerTools } from './list-tools.js';
import { idClashes } from './id-clash.js';
import { configText, scenarioIdFor } from './render.js';
import type { InitIo } from './run-init.js';
import { type ServerFile, serverFiles } from './server-files.js';
import { writeAll, type PlannedFile } from './write-files.js';

export interface FromClientOptions {
  fromClient?: string;
  fromClientConfig?: string[];
  dir?: string;
  force?: boolean;
  timeout?: number;
  /** The environment the client entries' variables come from (default process.env). */
  env?: NodeJS.ProcessEnv;
}

const CONFIG_FILE = 'crash-drill.config.mjs';

export async function runInitFromClient(options: FromClientOptions, io: InitIo): Promise<number> {
  const say = (line: string) => io.stderr.write(`crash-drill: init: ${line}\n`);
  const env = options.env ?? process.env;
  const client = options.fromClient;
  if (client !== undefined && !(CLIENT_IDS as readonly string[]).includes(client)) {
    throw new UsageError(`--from-client: expected one of ${CLIENT_IDS.join(', ')}, got "${client}"`);
  }
  const projectDir = path.resolve(io.cwd);
  const scenarioDir = path.resolve(projectDir, options.dir ?? 'scenarios');
  const places = placesFrom(env, projectDir);
  const loaded = loadClientConfigs({ places, discover: client !== undefined, client: client as ClientId | undefined, files: options.fromClientConfig });
  for (const p of loaded.problems) say(problemLine(p));
  if (loaded.servers.length === 0) {
    const where =
      loaded.files.length > 0
        ? loaded.files.map((f) => displayPath(f.file)).join(', ')
        : `no configuration file of ${client ?? 'the given files'} could be read`;
    throw new UsageError(`no stdio server entries to drill (${where}); nothing was written`);
  }

  const planned: PlannedFile[] = [{ file: path.join(projectDir, CONFIG_FILE), text: configText(projectDir, scenarioDir) }];
  const scenarios: ServerFile[] = [];
  const lines: string[] = [];
  const placeholders = new Set<string>();
  const takenDirs = new Set<string>();
  const takenIds = new Set<string>();
  let failed = 0;
  for (const server of loaded.servers) {
    const label = `${server.client}: ${server.name}`;
    let subject;
    try {
      subject = clientSubject(server, env, places.home);
    } catch (error) {
      if (!(error instanceof ClientSubjectError)) throw error;
      say(`${label}: ${error.message}; left out`);
      failed++;
      continue;
    }
    const cwd = subject.launchCwd ?? projectDir;
    let tools;
    try {
      ({ tools } = await listServerTools(
        { command: subject.command, args: subject.launchArgs, cwd, env: subject.launchEnv },
        options.timeout ?? DEFAULT_INIT_TIMEOUT_MS,
      ));
    } catch (error) {
      if (!(error instanceof ListToolsError)) throw error;
      // The message names the started args, which may hold a variable's value: say only the cause.
      say(`${label}: could not list its tools: ${error.message.replace(/^could not list the tools of `[^`]*`: /s, '')}; left out`);
      failed++;
      continue;
    }
    if (tools.length === 0) {
      say(`${label}: lists no tools, so there is no call to drill; left out`);
      continue;
    }
    const entryId = scenarioIdFor(server.name, takenDirs);
    const dir = path.join(scenarioDir, entryId);
    const written = { command: subject.command, args: subject.args, cwd };
    const files = serverFiles({
      tools,
      server: written,
      dir,
      projectDir,
      idPrefix: `${entryId}-`,
      takenIds,
      subjectName: subject.name,
      subjectEnv: subject.env,
      label,
    });
    scenarios.push(...files);
    for (const v of Object.values(subject.env)) for (const m of v.matchAll(/\{\{env\.(\w+)\}\}/g)) placeholders.add(m[1]!);
    for (const a of subject.args) for (const m of a.matchAll(/\{\{env\.(\w+)\}\}/g)) placeholders.add(m[1]!);
    lines.push(
      `  ${displayPath(dir)}/  ${label}: ${tools.length} tool${tools.length === 1 ? '' : 's'}, ${files.length} scenarios${subject.env && Object.keys(subject.env).length > 0 ? `; env names: ${Object.keys(subject.env).join(', ')}` : ''}`,
    );
  }
  if (lines.length === 0) {
    say('no configured server could be asked for its tools; nothing was written');
    return EXIT.harness;
  }

  const clashes = await idClashes(scenarioDir, scenarios);
  if (clashes.length > 0) {
    throw new UsageError(
      clashes
        .map(
          (line) =>
            `${line}: scenario ids must be unique, so run would refuse both; move or remove it (an earlier init wrote one scenario per tool in each server's folder)`,
        )
        .join('\n') + '; nothing was written',
    );
  }
  planned.push(...scenarios);
  await writeAll(planned, options.force === true);
  const out = io.stdout;
  const drills = scenarios.reduce((n, f) => n + f.drills, 0);
  out.write(
    `wrote ${displayPath(planned[0]!.file)} and ${scenarios.length} scenarios (${drills} drills) for ${lines.length} server${lines.length === 1 ? '' : 's'}:\n${lines.join('\n')}\n`,
  );
  if (placeholders.size > 0)
    out.write(
      `The scenarios reference ${[...placeholders].sort().join(', ')} as {{env.NAME}} (not copied): set them in the environment of \`crash-drill run\`.\n`,
    );
  out.write('Adjust the placeholder args in each scenario, then run: npx crash-drill run\n');
  if (failed > 0) out.write(`${failed} configured server${failed === 1 ? ' was' : 's were'} left out (see above).\n`);
  return EXIT.ok;
}
