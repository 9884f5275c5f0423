/**
 * A command as the client spawns it (execvp PATH lookup; relative to the client's folder). Two
 * commands are the same program when their names as written, absolute or real agree.
 */
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

function executable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function whichOnPath(name: string, pathVar: string | undefined): string | null {
  for (const dir of (pathVar ?? '').split(':')) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    if (executable(candidate)) return candidate;
  }
  return null;
}

function real(file: string): string | null {
  try {
    return realpathSync(file);
  } catch {
    return null;
  }
}

/** The real path of a folder or file, or the path as given when it cannot be resolved. */
export function realOrSelf(file: string): string {
  return real(file) ?? file;
}

export class ProgramNames {
  private readonly cache = new Map<string, Set<string>>();
  constructor(private readonly pathVar: string | undefined) {}

  /** The names of `command` run from `cwd` (null: unknown, a relative path then stays as written). */
  of(command: string, cwd: string | null): Set<string> {
    const key = `${cwd ?? ''}\0${command}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const names = new Set<string>([command]);
    const abs = command.includes('/') ? (path.isAbsolute(command) ? command : cwd ? path.resolve(cwd, command) : null) : whichOnPath(command, this.pathVar);
    if (abs) {
      names.add(abs);
      const r = real(abs);
      if (r) names.add(r);
    }
    this.cache.set(key, names);
    return names;
  }
}

export function sameProgram(a: Set<string>, b: Set<string>): boolean {
  for (const n of a) if (b.has(n)) return true;
  return false;
}
