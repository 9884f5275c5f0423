/** The survey catalog's shape (survey/catalog.yaml): per published server, what it takes to start it offline; the JSON Schema is generated from it. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';

export const REGISTRIES = ['npm', 'pypi', 'go', 'crate', 'debian', 'local'] as const;
export type Registry = (typeof REGISTRIES)[number];

/** What a server needs to start offline; the survey makes each one per drill run. */
export const NEEDS = ['folder', 'git-repo', 'kubeconfig', 'chromium'] as const;
export type Need = (typeof NEEDS)[number];

const Id = z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'a lower-case id: letters, digits, ".", "_" and "-"');

const Call = z.strictObject({
  tool: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
  /** The call starts a child (a browser page, a shell, a language server): drilled at child-spawned too. */
  spawns: z.string().min(1).optional(),
});

const Use = z.strictObject({
  /** e.g. "npm downloads a month" or "PyPI rank"; null when it could not be read here. */
  figure: z.string().nullable(),
  source: z.string().min(1),
});

export const CatalogEntrySchema = z.strictObject({
  id: Id,
  registry: z.enum(REGISTRIES),
  /** The package as its registry names it (a Go module path for go; a folder under the project for local). */
  package: z.string().min(1),
  version: z.string().regex(/^v?[0-9][0-9A-Za-z.+-]*$/, 'an exact version such as 1.2.3 or v0.8.0 (no range, no tag)'),
  /** The launch command as a client configuration writes it; the survey fills the placeholders, {{bin}} is the installed program. */
  launch: z.array(z.string().min(1)).min(1),
  /** For pypi, go, crate: the console script or binary the package installs (uvx runs it the same way). */
  bin: z.string().min(1).optional(),
  needs: z.array(z.enum(NEEDS)).default([]),
  /** Files written into {{folder}} before the server starts (a config file, a tiny project), path: text. */
  files: z.record(z.string().regex(/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/, 'a relative path inside the folder'), z.string()).default({}),
  /** Variables set for the server. Values under `secrets` are dummies, never written to a report. */
  env: z.record(z.string(), z.string()).default({}),
  secrets: z.record(z.string(), z.string()).default({}),
  calls: z.array(Call).default([]),
  language: z.string().min(1),
  sdk: z.string().min(1),
  use: Use,
  repository: z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'owner/name on GitHub'),
  /** Known lifecycle issues, "repo#number". */
  issues: z.array(z.string().regex(/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)?#[0-9]+$/, 'repo#number')).default([]),
  /** Why it cannot start here: the survey says so in its row and drills nothing. */
  cannotStart: z.string().min(1).optional(),
});

export const CatalogSchema = z.strictObject({
  version: z.literal(1),
  servers: z.array(CatalogEntrySchema).min(1),
});

export type CatalogEntry = z.output<typeof CatalogEntrySchema>;
export type Catalog = z.output<typeof CatalogSchema>;

export function catalogJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(CatalogSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...schema, $id: 'https://mcp-crash-drill.dev/schema/survey-catalog.schema.json', title: 'mcp-crash-drill survey catalog' };
}

export function writeCatalogJsonSchema(root: string): string {
  const dir = join(root, 'schema');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'survey-catalog.schema.json');
  writeFileSync(file, `${JSON.stringify(catalogJsonSchema(), null, 2)}\n`);
  return file;
}
