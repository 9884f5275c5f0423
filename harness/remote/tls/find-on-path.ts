import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The first executable file called `name` in PATH, as a shell would find it; null when none. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const file = join(dir, name);
    try {
      if (!statSync(file).isFile()) continue;
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}
