/** uid -> user name from /etc/passwd, read once. Enough for local accounts; a uid the file does not name is shown as the number, as ps does. */
import { readFileSync } from 'node:fs';

let names: Map<number, string> | undefined;

export function userName(uid: number): string {
  if (names === undefined) {
    names = new Map();
    try {
      for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
        const [name, , id] = line.split(':');
        if (name && id !== undefined && !names.has(Number(id))) names.set(Number(id), name);
      }
    } catch {
      // no passwd file: numbers it is
    }
  }
  return names.get(uid) ?? String(uid);
}
