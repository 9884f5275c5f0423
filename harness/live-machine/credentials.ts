/**
 * Which environment variables hold a credential, by name: on a live machine nobody hands us
 * the secrets to look for (a drill knows its own token; inventory.ts matches those values), and
 * the ps backend cannot see values at all. Names only ever leave this module, never values.
 */
import { isCredentialName } from '../util/secrets.js';

export function credentialNames(names: readonly string[]): string[] {
  return [...new Set(names.filter(isCredentialName))].sort();
}
