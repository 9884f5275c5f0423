/** Which env variables hold a credential, by name (a live machine gives no secrets to match; ps cannot see values); never values. */
import { isCredentialName } from '../util/secrets.js';

export function credentialNames(names: readonly string[]): string[] {
  return [...new Set(names.filter(isCredentialName))].sort();
}
