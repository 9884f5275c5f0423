/** The shipped JSON Schema agrees with the zod schema on real files, both ways. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { scenarioJsonSchema } from '../../harness/config/json-schema.js';
import { packageRoot } from '../../harness/util/paths.js';

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? yamlFiles(path) : name.endsWith('.yaml') ? [path] : [];
  });
}

describe('scenario JSON Schema', () => {
  const ajv = new Ajv2020.default({ strict: false, allErrors: true });
  const validate = ajv.compile(scenarioJsonSchema());

  it('accepts every bundled scenario', () => {
    const files = yamlFiles(join(packageRoot(), 'scenarios'));
    expect(files.length).toBeGreaterThan(5);
    const rejected = files.filter((file) => !validate(parse(readFileSync(file, 'utf8')))).map((file) => `${file}: ${ajv.errorsText(validate.errors)}`);
    expect(rejected).toEqual([]);
  });

  it('rejects what the loader rejects: an unknown kill point, an unknown field, no subject', () => {
    const base = { id: 'x', subject: { command: 'node' }, target: { call: 't' } };
    expect(validate(base)).toBe(true);
    expect(validate({ ...base, points: ['sideways'] })).toBe(false);
    expect(validate({ ...base, modez: ['crash'] })).toBe(false);
    expect(validate({ id: 'x', target: { call: 't' } })).toBe(false);
  });
});
