/**
 * The image the container fake servers run in, built offline: a root filesystem holding only
 * /usr/bin/node, the docker CLI (for the tool that starts a sibling container) and the shared
 * libraries `ldd` lists for them, imported with `docker import`. No registry is ever asked: a
 * missing image would make `docker run` try one, so the scenarios run with `--pull never`.
 * The servers' code is not copied in: the scenarios bind-mount the package read-only at the
 * same path, so `node_modules` resolves as on the host.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const NODE_IMAGE = 'crash-drill-node:local';

/** Absolute paths of the shared libraries a binary needs (ldd's `=> /path` and the loader). */
export function sharedLibraries(binary: string): string[] {
  let out: string;
  try {
    out = execFileSync('ldd', [binary], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return []; // "not a dynamic executable": a static binary needs nothing else
  }
  return [...out.matchAll(/(?:=>\s*)?(\/[^\s]+)\s+\(0x/g)].map((m) => m[1]);
}

function copyInto(root: string, path: string): void {
  const target = join(root, path);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(realpathSync(path), target);
}

export type BuildImageOptions = { tag?: string; docker?: string; env?: NodeJS.ProcessEnv; node?: string; dockerCli?: string | null };

/** Builds the image with `docker import` and returns its tag. */
export function buildNodeImage(opts: BuildImageOptions = {}): string {
  const tag = opts.tag ?? NODE_IMAGE;
  const node = opts.node ?? process.execPath;
  const cli = opts.dockerCli === undefined ? findDockerCli() : opts.dockerCli;
  const work = mkdtempSync(join(tmpdir(), 'cd-img-'));
  try {
    const root = join(work, 'root');
    const binaries: Array<[string, string]> = [[node, '/usr/bin/node']];
    if (cli) binaries.push([cli, '/usr/bin/docker']);
    for (const [from, to] of binaries) {
      mkdirSync(join(root, dirname(to)), { recursive: true });
      copyFileSync(realpathSync(from), join(root, to));
      for (const lib of sharedLibraries(from)) copyInto(root, lib);
    }
    mkdirSync(join(root, 'tmp'), { recursive: true });
    const tar = join(work, 'rootfs.tar');
    execFileSync('tar', ['-C', root, '-cf', tar, '.']);
    execFileSync(opts.docker ?? 'docker', ['import', '-c', 'CMD ["/usr/bin/node"]', tar, tag], {
      env: opts.env ?? process.env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    return tag;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The docker CLI on PATH, or null. */
export function findDockerCli(): string | null {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, 'docker'))) return join(dir, 'docker');
  }
  return null;
}

// `node dist/fake-servers/containers/image.js [tag]`: build it for the bundled container scenarios.
if (process.argv[1] && realpathSync(process.argv[1]) === realpathSync(new URL(import.meta.url).pathname)) {
  console.log(buildNodeImage({ tag: process.argv[2] }));
}
