/**
 * test/ mirrors the source tree (execa keeps its terminate tests in a folder named like lib/terminate/): every folder of
 * test/ is the folder of harness/ (or of the repository: reports/, fake-servers/) whose code it
 * tests, a fixtures/, support/ or scenarios/ folder inside one, or one of the groups that test the
 * whole rather than a folder (docs/contributing.md, Layout).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../harness/util/paths.js';

const root = packageRoot();

/** Groups of tests of the whole: the action, the suite's own leftovers, the Go, Java, Python and Rust SDKs, real servers, an unprivileged user, the support library. */
const GROUPS = ['action', 'final', 'go-sdk', 'java-sdk', 'last', 'python-sdk', 'real', 'rust-sdk', 'support', 'unprivileged'];
const INSIDE = ['fixtures', 'support', 'scenarios'];

function folders(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => [`${dir}/${e.name}`, ...folders(`${dir}/${e.name}`)]);
}

describe('test/ mirrors the tree', () => {
  it('every folder of test/ is a source folder, a fixtures, support or scenarios folder in one, or a group of tests of the whole', () => {
    const stray = folders('test').filter((dir) => {
      const rel = dir.slice('test/'.length);
      const parts = rel.split('/');
      if (GROUPS.includes(parts[0])) return false;
      const mirrored = (p: string) => existsSync(join(root, 'harness', p)) || existsSync(join(root, p));
      const inside = parts.findIndex((p) => INSIDE.includes(p));
      return !mirrored(inside === -1 ? rel : parts.slice(0, inside).join('/'));
    });
    expect(stray).toEqual([]);
  });
});
