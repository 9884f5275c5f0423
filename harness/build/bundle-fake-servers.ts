/**
 * Build step: bundles the SDK the Node fake servers import (fake-servers/lib/sdk.ts and
 * fake-servers/sdk2/lib/sdk.ts) into one file each, in place of what tsc emitted. A fake server
 * then loads its SDK and zod from one file instead of a few hundred modules: about half the CPU
 * time of a server start, the biggest single cost of a drill and of the test suite. The code is
 * the same packages' code, unminified; only node: built-ins stay imports. The servers' own
 * modules are not bundled, so their paths (lib/helper.js beside lib/paths.js) hold as compiled.
 *
 * tsc's incremental build re-emits sdk.js only when sdk.ts changes; a file that already is a
 * bundle (it imports no package) is left alone, so a second build costs nothing here.
 */
import { readFileSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../util/paths.js';

export const SDK_MODULES = ['dist/fake-servers/lib/sdk.js', 'dist/fake-servers/sdk2/lib/sdk.js'];

/** True while the file still imports packages (what tsc emits); false once it is a bundle. */
export function importsPackages(text: string): boolean {
  return /^\s*(?:import|export)\b[^'"]*from\s+['"](?!node:|\.)[^'"]+['"]/m.test(text);
}

export async function bundleSdkModule(file: string): Promise<boolean> {
  if (!importsPackages(readFileSync(file, 'utf8'))) return false;
  const { rolldown } = await import('rolldown'); // a devDependency, loaded only when there is work
  const tmp = `${file}.bundle-${process.pid}.js`;
  try {
    const build = await rolldown({ input: file, platform: 'node', logLevel: 'warn' });
    await build.write({ file: tmp, format: 'esm', codeSplitting: false });
    await build.close();
    renameSync(tmp, file);
  } finally {
    rmSync(tmp, { force: true });
  }
  return true;
}

// `node dist/harness/build/bundle-fake-servers.js`, the last step of `npm run build`.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const rel of SDK_MODULES) await bundleSdkModule(join(packageRoot(), rel));
}
