/**
 * The bundled container scenarios (scenarios-containers/), pointed at a private engine: the
 * subject gets DOCKER_HOST, the sibling's socket mount names the private socket, and the
 * package folder is named by its absolute path (the copies live in a temp folder).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Scenario } from '../../../harness/config/index.js';
import { packageRoot } from '../../../harness/util/paths.js';
import { scenarioFrom } from '../../support/scenarios.js';
import { tempDir } from '../../support/temp-dir.js';
import type { PrivateEngine } from './private-engine.js';

export const CONTAINER_SCENARIOS = ['exits-on-eof', 'ignores-eof', 'ignores-eof-no-init', 'starts-sibling'] as const;
export type ContainerScenario = (typeof CONTAINER_SCENARIOS)[number];

export function containerScenario(name: ContainerScenario, engine: PrivateEngine, extra: string[] = [], dir = tempDir()): Scenario {
  const root = packageRoot();
  const text = readFileSync(join(root, 'scenarios-containers', `${name}.yaml`), 'utf8')
    .replaceAll('{{scenario.dir}}/..', root)
    .replaceAll('/var/run/docker.sock:', `${engine.socket}:`)
    .replace(/^subject:\n/m, `subject:\n  env: { DOCKER_HOST: "${engine.host}" }\n`);
  return scenarioFrom([text, ...extra].join('\n'), dir, `${name}.yaml`);
}
