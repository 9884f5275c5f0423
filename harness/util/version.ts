import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './paths.js';

let cached: { name: string; version: string } | undefined;

export function harnessInfo(): { name: string; version: string } {
  if (!cached) {
    const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { name: string; version: string };
    cached = { name: pkg.name, version: pkg.version };
  }
  return cached;
}
