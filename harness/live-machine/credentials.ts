/**
 * Which environment variables hold a credential, by name: on a live machine nobody hands us
 * the secrets to look for (a drill knows its own token; inventory.ts matches those values), and
 * the ps backend cannot see values at all. Names only ever leave this module, never values.
 */
const CREDENTIAL_NAME = /(TOKEN|SECRET|PASSW(OR)?D|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIAL|AUTH|COOKIE|SESSION_?KEY|BEARER|_PAT$)/i;
/** Names that match but hold no secret. */
const NOT_A_CREDENTIAL = /^(AUTHOR|AUTHORS|XAUTHORITY|.*_AUTH_TYPE|.*_AUTH_URL|.*_AUTH_URI|.*TOKEN_URL|.*TOKEN_URI)$/i;

export function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAME.test(name) && !NOT_A_CREDENTIAL.test(name);
}

export function credentialNames(names: readonly string[]): string[] {
  return [...new Set(names.filter(isCredentialName))].sort();
}
