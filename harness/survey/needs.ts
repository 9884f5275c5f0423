/** What a catalog entry needs to start with no network or account, made in a per-server scratch folder, and its placeholders filled. */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CatalogEntry } from '../config/index.js';
import { packageRoot } from '../util/paths.js';

/** Where an API base URL points: loopback, where nothing listens, so a call fails at once and reaches nothing. */
export const LOOPBACK_API = 'http://127.0.0.1:9';

export interface Prepared {
  scratch: string;
  values: Record<string, string>;
}

/** A local headless Chromium: CRASH_DRILL_CHROMIUM, /usr/bin/chromium, or the npm-shipped one the suite unpacks. */
export function findChromium(): { path: string; libs: string | null } | null {
  const given = process.env.CRASH_DRILL_CHROMIUM;
  if (given && existsSync(given)) return { path: given, libs: existsSync(join(dirname(given), 'lib')) ? join(dirname(given), 'lib') : null };
  if (existsSync('/usr/bin/chromium')) return { path: '/usr/bin/chromium', libs: null };
  const unpacked = join(packageRoot(), 'node_modules/.cache/crash-drill-chromium');
  if (!existsSync(unpacked)) return null;
  for (const version of readdirSync(unpacked).sort().reverse()) {
    const exe = join(unpacked, version, 'chromium');
    if (existsSync(exe)) return { path: exe, libs: join(unpacked, version, 'lib') };
  }
  return null;
}

/** Why the entry cannot start here before anything is tried, or null. */
export function missingNeed(entry: CatalogEntry): string | null {
  if (entry.needs.includes('chromium') && findChromium() === null)
    return 'no local Chromium: set CRASH_DRILL_CHROMIUM, install /usr/bin/chromium, or unpack the npm one (test/reports/fixtures/npm-chromium.ts)';
  return null;
}

/** A scratch folder for one entry's needs, made by whoever removes it after the server is done. */
export function makeScratch(entry: CatalogEntry): string {
  return mkdtempSync(join(tmpdir(), `crash-drill-survey-${entry.id}-`));
}

export function prepareNeeds(entry: CatalogEntry, scratch = makeScratch(entry)): Prepared {
  const values: Record<string, string> = { remote: LOOPBACK_API, project: packageRoot() };
  const folder = join(scratch, 'folder');
  mkdirSync(folder);
  values.folder = folder;
  for (const [rel, text] of Object.entries(entry.files)) {
    mkdirSync(dirname(join(folder, rel)), { recursive: true });
    writeFileSync(join(folder, rel), text);
  }
  if (entry.needs.includes('git-repo')) {
    const repo = join(scratch, 'repo');
    mkdirSync(repo);
    writeFileSync(join(repo, 'README.md'), 'survey\n');
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: repo,
        stdio: 'ignore',
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 'survey',
          GIT_AUTHOR_EMAIL: 's@example.invalid',
          GIT_COMMITTER_NAME: 'survey',
          GIT_COMMITTER_EMAIL: 's@example.invalid',
        },
      });
    git('init', '-q', '-b', 'main');
    git('add', 'README.md');
    git('commit', '-q', '-m', 'survey');
    values.repo = repo;
  }
  if (entry.needs.includes('kubeconfig')) {
    const file = join(scratch, 'kubeconfig');
    writeFileSync(
      file,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{ name: survey, cluster: { server: "https://127.0.0.1:9", insecure-skip-tls-verify: true } }]',
        'users: [{ name: survey, user: { token: survey-dummy } }]',
        'contexts: [{ name: survey, context: { cluster: survey, user: survey, namespace: default } }]',
        'current-context: survey',
        '',
      ].join('\n'),
    );
    values.kubeconfig = file;
  }
  if (entry.needs.includes('chromium')) {
    const found = findChromium()!;
    // One program to name in a flag: the browser with its own libraries, no sandbox (the survey runs as root).
    const wrapper = join(scratch, 'chromium');
    const lib = found.libs ? `LD_LIBRARY_PATH='${found.libs}' FONTCONFIG_PATH='${dirname(found.path)}' ` : '';
    writeFileSync(wrapper, `#!/bin/sh\n${lib}exec '${found.path}' --no-sandbox --no-zygote --disable-gpu "$@"\n`);
    chmodSync(wrapper, 0o755);
    values.chromium = wrapper;
  }
  return { scratch, values };
}

/**
 * The drill remote's templates (docs/remote.md) an entry may give a server, as its API base URL and
 * token: `{{remote.url}}` and `{{session.token}}` stay in its scenarios, and each drill renders them
 * for its own remote, relayed into its loopback-only network. Listing the tools happens before any
 * drill remote exists, so there they are the no-listener address of `{{remote}}` and a dummy.
 */
const DRILL_REMOTE_TEMPLATES: Readonly<Record<string, string>> = {
  'remote.url': LOOPBACK_API,
  'remote.httpsUrl': 'https://127.0.0.1:9',
  'session.token': 'survey-listing-token',
  'remote.apiKey': 'survey-listing-key',
};

/** `text` with the drill remote's templates as they are where there is no drill remote (init's listing, the stand-in clients of --verify). */
export function withoutDrillRemote(text: string): string {
  return text.replace(/\{\{\s*([a-zA-Z.]+)\s*\}\}/g, (whole, name: string) => DRILL_REMOTE_TEMPLATES[name] ?? whole);
}

/** `{{name}}` filled in from `values`; `{{bin}}` too when given. An unknown name is left as it is, and so is a drill remote's template (above). */
export function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{([a-z]+)\}\}/g, (whole, name: string) => values[name] ?? whole);
}

/** The command the survey starts: the launch as written for npm and local; for pypi/go, the installed program in place of `uvx ...`. */
export function serverWords(entry: CatalogEntry, program: string | null, values: Record<string, string>): string[] {
  const launch = entry.launch.map((w) => fill(w, values));
  if (program === null) return launch;
  // `uvx pkg==v args`, `uvx --from pkg==v bin args`, or the bare binary name: the args are what follows.
  let rest = launch.slice(1);
  if (launch[0] === 'uvx') rest = launch[1] === '--from' ? launch.slice(4) : launch.slice(2);
  return [program, ...rest];
}
