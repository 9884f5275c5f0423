/**
 * Build step (the last of `npm run build`): bundles what is started as a process again and again
 * (dist/bin/; the drill client and the fake servers' SDK each in one CommonJS file with a V8 code
 * cache, harness/util/code-cache.ts; each top-level fake server in one ES module), so a start reads
 * a few files, not hundreds of modules. dist/harness/ stays tsc's: the library API.
 */
import { spawnSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import { chmodSync, existsSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../util/paths.js';

/** The harness's entry points: dist/bin/<name>.js from the tsc output at the path given. */
export const HARNESS_ENTRIES = {
  'crash-drill': 'dist/harness/cli/main.js',
  sentinel: 'dist/harness/run/sentinel-main.js',
} as const;

/**
 * The drill client, started once a drill: dist/bin/drill-client.js, a stub that runs `run` of
 * one CommonJS bundle of `source` (dist/bin/drill-client.cjs) through its code cache. The build's
 * evaluation awaits `warmUp` (the SDK's load) before it writes the cache.
 */
export const DRILL_CLIENT = {
  stub: 'dist/bin/drill-client.js',
  source: 'dist/harness/client-process/main.js',
  run: 'runClient',
  warmUp: 'loadSession',
} as const;

/** The entries started as programs by their path (package.json's bin): written with mode 0755. */
export const RUNNABLE_ENTRIES = ['crash-drill'] as const satisfies readonly (keyof typeof HARNESS_ENTRIES)[];

/** Packages user code imports too (a scenario's msw handlers): kept as imports, so both share one module instance. */
export const SHARED_WITH_USER_CODE = [/^msw(\/|$)/, /^@mswjs\//];

/** The fake servers' SDK modules: the bundle (dist) of each source. */
export const SDK_MODULES = {
  'dist/fake-servers/lib/sdk.js': 'fake-servers/lib/sdk.ts',
  'dist/fake-servers/sdk2/lib/sdk.js': 'fake-servers/sdk2/lib/sdk.ts',
} as const;

/** Import and export specifiers of an ES module's text (static ones, at the start of a line). */
export function importSpecifiers(text: string): string[] {
  return [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]);
}

/** Packages whose UMD `main` the bundler cannot follow (jsonc-parser): the bundle takes their ES module build. */
export const ESM_BUILD_OF = (root: string) => ({ 'jsonc-parser': join(root, 'node_modules/jsonc-parser/lib/esm/main.js') });

/** Built-ins imported by bare name become `node:` imports, so dist/bin imports only built-ins, chunks and shared packages (test/build/bundle.test.ts). */
const NODE_PREFIXED: Record<string, string> = Object.fromEntries(builtinModules.filter((m) => !m.startsWith('_')).map((m) => [m, `node:${m}`]));

type Rolldown = typeof import('rolldown');

export async function bundleHarness(rolldown: Rolldown['rolldown'], root: string): Promise<void> {
  const out = join(root, 'dist/bin');
  const tmp = `${out}.tmp-${process.pid}`;
  const input = Object.fromEntries(Object.entries(HARNESS_ENTRIES).map(([name, file]) => [name, join(root, file)]));
  try {
    const build = await rolldown({
      input,
      platform: 'node',
      logLevel: 'warn',
      external: [/^node:/, ...SHARED_WITH_USER_CODE],
      resolve: { alias: { ...NODE_PREFIXED, ...ESM_BUILD_OF(root) } },
    });
    await build.write({ dir: tmp, format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' });
    await build.close();
    // npm sets a bin's run bit only when it installs a package, so in a checkout the build must.
    for (const name of RUNNABLE_ENTRIES) chmodSync(join(tmp, `${name}.js`), 0o755);
    // Swapped in whole: a build that fails half-way leaves the previous bin/ as it was.
    rmSync(out, { recursive: true, force: true });
    renameSync(tmp, out);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The CommonJS bundle beside a stub: dist/fake-servers/lib/sdk.js holds sdk.cjs. */
export function sdkBundleOf(stub: string): string {
  return stub.replace(/\.js$/, '.cjs');
}

/** The loader the stubs import (harness/util/code-cache.ts, as tsc emitted it). */
export const CODE_CACHE_LOADER = 'dist/harness/util/code-cache.js';

function loaderFrom(stubFromRoot: string): string {
  const loader = relative(dirname(stubFromRoot), CODE_CACHE_LOADER);
  return loader.startsWith('.') ? loader : `./${loader}`;
}

/** An SDK module's stub: loads the CommonJS bundle beside it through its code cache and re-exports the source's names. */
export function sdkStub(stubFromRoot: string, names: string[]): string {
  const bundle = basename(sdkBundleOf(stubFromRoot));
  return [
    '// Written by harness/build/bundle.ts: the SDK and zod in one CommonJS file beside this one,',
    '// loaded through the V8 code cache the build made for it (harness/util/code-cache.ts).',
    "import { fileURLToPath } from 'node:url';",
    `import { loadBundle } from '${loaderFrom(stubFromRoot)}';`,
    '',
    `const sdk = loadBundle(fileURLToPath(new URL('./${bundle}', import.meta.url)));`,
    ...names.map((name) => `export const ${name} = sdk.${name};`),
    '',
  ].join('\n');
}

/** The drill client's stub: runs the bundle beside it, loaded through its code cache. */
export function drillClientStub(): string {
  return [
    '// Written by harness/build/bundle.ts: the drill client (harness/client-process/main.ts) in one',
    '// CommonJS file beside this one, loaded through the V8 code cache the build made for it',
    '// (harness/util/code-cache.ts).',
    "import { fileURLToPath } from 'node:url';",
    `import { loadBundle } from '${loaderFrom(DRILL_CLIENT.stub)}';`,
    '',
    `loadBundle(fileURLToPath(new URL('./${basename(sdkBundleOf(DRILL_CLIENT.stub))}', import.meta.url))).${DRILL_CLIENT.run}();`,
    '',
  ].join('\n');
}

type RolldownInput = Parameters<Rolldown['rolldown']>[0];

/** One input into one file, node: built-ins left as imports: the file's chunk (its exports and modules). */
async function bundleFile(
  rolldown: Rolldown['rolldown'],
  input: string,
  file: string,
  format: 'cjs' | 'esm',
  alias: Record<string, string>,
  plugins?: RolldownInput['plugins'],
) {
  const build = await rolldown({ input, platform: 'node', logLevel: 'warn', external: [/^node:/], resolve: { alias }, plugins });
  const { output } = await build.write({ file, format, codeSplitting: false });
  await build.close();
  return output[0];
}

/**
 * Bundles `source` into one CommonJS file beside the stub (`dist`), makes its code cache, then
 * writes the stub from the bundle's exports: a stub is there only with its bundle and cache.
 */
async function bundleCached(
  rolldown: Rolldown['rolldown'],
  root: string,
  dist: string,
  source: string,
  stubOf: (exports: string[]) => string,
  warmUp?: string,
): Promise<void> {
  const stub = join(root, dist);
  const bundle = sdkBundleOf(stub);
  const tmp = `${bundle}.tmp-${process.pid}.cjs`;
  const tmpStub = `${stub}.tmp-${process.pid}.js`;
  try {
    const chunk = await bundleFile(rolldown, join(root, source), tmp, 'cjs', { ...NODE_PREFIXED, ...ESM_BUILD_OF(root) });
    renameSync(tmp, bundle);
    // The cache comes from one evaluation in a process of its own, with the node that runs the bundle.
    const made = spawnSync(process.execPath, [join(root, CODE_CACHE_LOADER), '--write', bundle, ...(warmUp ? [warmUp] : [])], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`the code cache of ${bundle} could not be made: ${made.stderr}`);
    writeFileSync(tmpStub, stubOf(chunk.exports));
    renameSync(tmpStub, stub);
  } finally {
    rmSync(tmp, { force: true });
    rmSync(tmpStub, { force: true });
  }
}

/** The fake servers, started once or more a drill: each top-level dist/fake-servers/<name>.js. */
export const FAKE_SERVERS_DIR = 'dist/fake-servers';
/** Where each fake's bundle goes: its lib/, beside the modules whose import.meta.url names files there (paths.ts, launch.ts, sdk.js). */
export const fakeBundleOf = (name: string): string => `lib/${name}.entry.js`;

/** A fake server's stub: its whole program is the bundle in lib/. */
export function fakeServerStub(name: string): string {
  return [
    '// Written by harness/build/bundle.ts: this fake server and the fake-servers/lib/ modules it uses,',
    '// in one file in lib/, where the paths they take from their own URL still hold.',
    `import './${fakeBundleOf(name)}';`,
    '',
  ].join('\n');
}

/**
 * Each top-level fake server in one ES module file in lib/ (the lib/ modules it uses inlined; node:
 * built-ins stay imports, and the SDK's CommonJS bundle is read at run time through its code
 * cache), so a start reads three files, not twenty: 10 to 20 ms of CPU less a start here, and the
 * suite starts about 2,000. A fake whose bundle would hold a module that reads import.meta.url
 * from outside lib/ (its paths would then point elsewhere) keeps tsc's output as it is.
 */
export async function bundleFakeServers(rolldown: Rolldown['rolldown'], root: string): Promise<string[]> {
  const dir = join(root, FAKE_SERVERS_DIR);
  const lib = join(dir, 'lib');
  const sources = join(root, 'fake-servers');
  // Each top-level fake from its TypeScript source (tsc's output at its path becomes the stub, and
  // an incremental tsc may not write it again), the entry and a fake it imports alike
  // (daemonizes-clean-env imports daemonizes); everything else from tsc's output in dist/: the
  // lib/ modules as they are now, and lib/sdk.js, the stub of the SDK's cached bundle.
  const fromDist = {
    name: 'fake-servers-from-dist',
    resolveId(source: string, importer: string | undefined) {
      if (!importer || !source.startsWith('.') || !importer.startsWith(`${sources}/`)) return null;
      const target = join(dirname(importer), source);
      if (dirname(target) === sources && target.endsWith('.js')) return `${target.slice(0, -'.js'.length)}.ts`;
      return join(root, 'dist', relative(root, target));
    },
  };
  // The code-cache loader's import.meta.url only tells whether it was run as the build's step: never, inlined.
  const loader = join(root, CODE_CACHE_LOADER);
  const bundled: string[] = [];
  for (const file of readdirSync(sources)) {
    if (!file.endsWith('.ts') || file.endsWith('.d.ts')) continue;
    const name = file.slice(0, -'.ts'.length);
    const entry = join(dir, `${name}.js`);
    if (!existsSync(entry)) continue;
    const out = join(dir, fakeBundleOf(name));
    const tmp = `${out}.tmp-${process.pid}.js`;
    const tmpStub = `${entry}.tmp-${process.pid}.js`;
    try {
      const chunk = await bundleFile(rolldown, join(sources, file), tmp, 'esm', NODE_PREFIXED, [fromDist]);
      const movesMeta = chunk.moduleIds.some(
        (id) => dirname(id) !== lib && id !== loader && existsSync(id) && readFileSync(id, 'utf8').includes('import.meta'),
      );
      if (movesMeta) {
        // tsc's output stays; a stub an earlier build wrote there (incremental tsc need not write it again) would run a stale bundle.
        if (readFileSync(entry, 'utf8') === fakeServerStub(name))
          throw new Error(`${entry} is the stub of an earlier build, and ${name} can no longer be bundled: remove dist/ and build again`);
        continue;
      }
      renameSync(tmp, out);
      writeFileSync(tmpStub, fakeServerStub(name));
      renameSync(tmpStub, entry);
      bundled.push(name);
    } finally {
      rmSync(tmp, { force: true });
      rmSync(tmpStub, { force: true });
    }
  }
  return bundled;
}

export async function bundleAll(root: string = packageRoot()): Promise<void> {
  const { rolldown } = await import('rolldown'); // a devDependency: needed to build, not to run
  // The client goes into dist/bin once bundleHarness has swapped that folder in.
  await Promise.all([
    bundleHarness(rolldown, root).then(() => bundleCached(rolldown, root, DRILL_CLIENT.stub, DRILL_CLIENT.source, drillClientStub, DRILL_CLIENT.warmUp)),
    // The fakes inline the SDK's stub, which must be written first.
    Promise.all(Object.entries(SDK_MODULES).map(([dist, source]) => bundleCached(rolldown, root, dist, source, (names) => sdkStub(dist, names)))).then(() =>
      bundleFakeServers(rolldown, root),
    ),
  ]);
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await bundleAll();
}
