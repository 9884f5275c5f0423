/**
 * `subject.files`: configuration files written for the server before it starts (a kubeconfig
 * holding `{{session.token}}`, a settings file naming `{{remote.httpsUrl}}`). Each is
 * `<drill temp folder>/<name>`, mode 0600, in a folder only the harness's user can enter
 * (temp-folder.ts). `{{files.<name>}}` is its path in every other template. The recovery retry
 * writes them again with its own session's token. Their contents hold credentials, so they are
 * never recorded: the evidence, the results and the reports see the scenario's templates at
 * most, never the rendered text.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where each named file goes: the `files` of the template context. */
export function subjectFilePaths(names: readonly string[], tmp: string): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, join(tmp, name)]));
}

/** Writes the rendered files (truncating an earlier drill generation's), each 0600. */
export function writeSubjectFiles(files: Record<string, string> | undefined, paths: Record<string, string>): void {
  for (const [name, text] of Object.entries(files ?? {})) {
    // The mode applies when the file is made; the retry's rewrite keeps it.
    writeFileSync(paths[name], text, { mode: 0o600 });
  }
}
