/**
 * The JSON Schema of scenario files, generated from the zod schema for editors
 * (`# yaml-language-server: $schema=./node_modules/mcp-crash-drill/schema/scenario.schema.json`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { ScenarioSchema } from './schema.js';

export function scenarioJsonSchema(): Record<string, unknown> {
  // The input shape: defaults are optional for the author; the subject/subjects refinement becomes an anyOf.
  const schema = z.toJSONSchema(ScenarioSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return {
    ...schema,
    $id: 'https://mcp-crash-drill.dev/schema/scenario.schema.json',
    title: 'mcp-crash-drill scenario',
    anyOf: [{ required: ['subject'] }, { required: ['subjects'] }],
  };
}

export function writeScenarioJsonSchema(root: string): string {
  const dir = join(root, 'schema');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'scenario.schema.json');
  writeFileSync(file, JSON.stringify(scenarioJsonSchema(), null, 2) + '\n');
  return file;
}
