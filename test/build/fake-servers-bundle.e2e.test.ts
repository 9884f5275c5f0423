/**
 * The fake servers' bundles (harness/build/bundle.ts bundleFakeServers): after `npm run build`
 * each top-level fake server is a stub that imports its one bundle in dist/fake-servers/lib/,
 * which imports nothing but Node's built-ins (the SDK's CommonJS bundle is read at run time,
 * through its code cache), and it runs. Where a bundle would carry a module that reads
 * import.meta.url from outside lib/ (its paths would then point elsewhere), the fake is left as
 * tsc wrote it: both ways on a small tree of the same shape, bundled for real.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleFakeServers, FAKE_SERVERS_DIR, fakeBundleOf, fakeServerStub, importSpecifiers } from '../../harness/build/bundle.js';
import { packageRoot } from '../../harness/util/paths.js';
import { tempDir } from '../support/temp-dir.js';

const root = packageRoot();

const where = "export const WHERE = new URL('./beside', import.meta.url).pathname;\n";

/** Writes files into a small tree shaped like the checkout (fake-servers/ and dist/fake-servers/). */
const treeWriter =
  (tree: string) =>
  (path: string, text: string): void => {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), text);
  };

/** A top-level fake as the build finds it: its source, and tsc's output of it (the same text, plain JavaScript). */
const fakeWriter =
  (put: (path: string, text: string) => void) =>
  (name: string, text: string): void => {
    put(`fake-servers/${name}.ts`, text);
    put(`dist/fake-servers/${name}.js`, text);
  };

describe("the fake servers' bundles", () => {
  it('after the build, each top-level fake server is a stub of its bundle in lib/, which imports only node: built-ins, and runs', () => {
    const sources = readdirSync(join(root, 'fake-servers')).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
    expect(sources.length).toBeGreaterThan(30);
    for (const file of sources) {
      const name = file.slice(0, -'.ts'.length);
      expect(readFileSync(join(root, FAKE_SERVERS_DIR, `${name}.js`), 'utf8'), name).toBe(fakeServerStub(name));
      const imports = importSpecifiers(readFileSync(join(root, FAKE_SERVERS_DIR, fakeBundleOf(name)), 'utf8'));
      expect(
        imports.filter((s) => !s.startsWith('node:')),
        name,
      ).toEqual([]);
    }
    // well-behaved, started and at once given EOF: it loads the SDK through its stub and exits 0 on its own.
    const run = spawnSync(process.execPath, [join(root, FAKE_SERVERS_DIR, 'well-behaved.js')], { input: '', encoding: 'utf8' });
    expect(run.stderr).toContain('[well-behaved] ready');
    expect(run.stderr).toContain('[well-behaved] exit 0');
    expect(run.status).toBe(0);
  });

  it('bundles a fake whose import.meta.url readers are all in lib/, and leaves one that would move another as tsc wrote it', async () => {
    const tree = tempDir('crash-drill-fake-bundles-');
    const put = treeWriter(tree);
    const fake = fakeWriter(put);
    fake('in-lib', "import { WHERE } from './lib/where.js';\nconsole.log(WHERE);\n");
    fake('elsewhere', "import { WHERE } from './other/where.js';\nconsole.log(WHERE);\n");
    put('dist/fake-servers/lib/where.js', where);
    put('dist/fake-servers/other/where.js', where);
    const { rolldown } = await import('rolldown');
    expect(await bundleFakeServers(rolldown, tree)).toEqual(['in-lib']);

    const dist = join(tree, 'dist/fake-servers');
    expect(readFileSync(join(dist, 'in-lib.js'), 'utf8')).toBe(fakeServerStub('in-lib'));
    expect(readdirSync(join(dist, 'lib')).sort()).toEqual(['in-lib.entry.js', 'where.js']);
    // The bundled module still finds what sits beside it in lib/; the one left alone, its own folder.
    const out = (file: string) => spawnSync(process.execPath, [join(dist, file)], { encoding: 'utf8' }).stdout.trim();
    expect(out('in-lib.js')).toBe(join(dist, 'lib/beside'));
    expect(readFileSync(join(dist, 'elsewhere.js'), 'utf8')).toBe("import { WHERE } from './other/where.js';\nconsole.log(WHERE);\n");
    expect(out('elsewhere.js')).toBe(join(dist, 'other/beside'));

    // An earlier build's stub where that fake now cannot be bundled (an incremental tsc did not
    // write its output again): refused with the way out, never left to run a stale bundle.
    writeFileSync(join(dist, 'elsewhere.js'), fakeServerStub('elsewhere'));
    await expect(bundleFakeServers(rolldown, tree)).rejects.toThrow(
      `${join(dist, 'elsewhere.js')} is the stub of an earlier build, and elsewhere can no longer be bundled: remove dist/ and build again`,
    );
  });

  it('a fake that imports another top-level fake takes it from its source, so a second build (the other now a stub) bundles the same', async () => {
    const tree = tempDir('crash-drill-fake-bundles-');
    const put = treeWriter(tree);
    const fake = fakeWriter(put);
    fake('a', "import { WHERE } from './lib/where.js';\nconsole.log(WHERE);\n");
    fake('b', "await import('./a.js');\n");
    put('dist/fake-servers/lib/where.js', where);
    const { rolldown } = await import('rolldown');
    const dist = join(tree, 'dist/fake-servers');
    const out = () => spawnSync(process.execPath, [join(dist, 'b.js')], { encoding: 'utf8' });
    for (const build of ['first', 'second']) {
      expect(await bundleFakeServers(rolldown, tree), build).toEqual(['a', 'b']);
      expect(readFileSync(join(dist, 'b.js'), 'utf8'), build).toBe(fakeServerStub('b'));
      expect(out().stdout.trim(), `${build}: ${out().stderr}`).toBe(join(dist, 'lib/beside'));
      // a's code from its source, never the bundle an earlier build made of it (stale until a's own turn).
      const b = readFileSync(join(dist, fakeBundleOf('b')), 'utf8');
      expect(b, build).toMatch(/^\/\/ \S*fake-servers\/a\.ts$/m);
      expect(b, build).not.toContain('a.entry.js');
    }
  });
});
