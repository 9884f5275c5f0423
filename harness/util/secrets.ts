/**
 * What counts as a secret, and how one is kept out of every output: found by name and by token
 * shape, as Gemini CLI filters a server's environment (google-gemini/gemini-cli 5411f113,
 * packages/core/src/services/environmentSanitization.ts, NEVER_ALLOWED_NAME_PATTERNS).
 */

/** A value that never appears in an output, and where it came from (the placeholder's name). */
export interface Secret {
  value: string;
  from: string;
}

/** The shortest value treated as a secret: shorter ones say nothing and would redact common words. */
export const MIN_SECRET_LENGTH = 8;

const CREDENTIAL_NAME = /(TOKEN|SECRET|PASSW(OR)?D|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIAL|AUTH|COOKIE|SESSION_?KEY|BEARER|_PAT$|^PAT$)/i;
/** Names that match but hold no secret. */
const NOT_A_CREDENTIAL = /^(.*AUTHOR.*|XAUTHORITY|.*_AUTH_TYPE|.*_AUTH_URL|.*_AUTH_URI|.*TOKEN_URL|.*TOKEN_URI)$/i;

/** Whether a variable's or flag's name says it holds a credential (`GITHUB_TOKEN`, `api_key`). */
export function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAME.test(name) && !NOT_A_CREDENTIAL.test(name);
}

/** Token shapes found inside any text, each with the kind its placeholder names. */
const TEXT_SHAPES: readonly { kind: string; re: RegExp }[] = [
  { kind: 'private-key', re: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g },
  { kind: 'github-token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{16,})/g },
  { kind: 'slack-token', re: /\bxox[abposr]-[A-Za-z0-9-]{8,}/g },
  { kind: 'aws-key', re: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g },
  { kind: 'google-api-key', re: /\bAIza[0-9A-Za-z_-]{30,}/g },
  { kind: 'jwt', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g },
  { kind: 'api-key', re: /\bsk-[A-Za-z0-9_-]{16,}/g },
  { kind: 'gitlab-token', re: /\bglpat-[A-Za-z0-9_-]{16,}/g },
  { kind: 'npm-token', re: /\bnpm_[A-Za-z0-9]{30,}/g },
  // scheme://user:password@host: the password only, so the address still reads.
  { kind: 'url-password', re: /(?<=\b[A-Za-z][\w+.-]*:\/\/[^/@\s:]*:)[^/@\s]+(?=@)/g },
];

/** One test for all shapes, so text without any (almost all of it) costs one scan. */
const ANY_SHAPE = new RegExp(TEXT_SHAPES.map((s) => s.re.source).join('|'));

/** A whole value that starts like a token, however short the rest (`sk-abc`), or a bearer value. */
const WHOLE_SHAPES = /^(gh[pousr]_|github_pat_|sk-|xox[abposr]-|AKIA|ASIA|AIza|glpat-|npm_|ey[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]+\.|[Bb]earer\s)/;

const QUERY_PARAM = /[?&]([^=&#\s]+)=[^&#\s]/g;

/** Whether a whole value looks like a secret: a token shape, a password URL, a credential query parameter, a `Bearer` value, or a 24+ character key. */
export function looksLikeSecret(value: string): boolean {
  if (WHOLE_SHAPES.test(value) || ANY_SHAPE.test(value)) return true;
  for (const m of value.matchAll(QUERY_PARAM)) if (isCredentialName(m[1]!.replace(/-/g, '_'))) return true;
  // Three or more dashes make an identifier (a UUID, `name-<uuid>`), not a key.
  return /^[A-Za-z0-9_\-+=]{24,}$/.test(value) && /[0-9]/.test(value) && /[A-Za-z]/.test(value) && (value.match(/-/g)?.length ?? 0) < 3;
}

export function placeholder(from: string): string {
  return from ? `[redacted:${from}]` : '[redacted]';
}

/** `text` with every known secret replaced (longest first, so one holding another goes whole), then every token shape. */
export function redact(text: string, secrets: readonly Secret[] = []): string {
  let out = text;
  if (secrets.some((s) => text.includes(s.value)))
    for (const s of byLength(secrets)) if (out.includes(s.value)) out = out.split(s.value).join(placeholder(s.from));
  return redactShapes(out);
}

export function redactShapes(text: string): string {
  if (!ANY_SHAPE.test(text)) return text;
  let out = text;
  for (const { kind, re } of TEXT_SHAPES) out = out.replace(re, placeholder(kind));
  return out;
}

function byLength(secrets: readonly Secret[]): Secret[] {
  return [...secrets].filter((s) => s.value.length >= MIN_SECRET_LENGTH).sort((a, b) => b.value.length - a.value.length);
}

/** `--api-key` -> `api_key`: a flag's name, to ask isCredentialName about. */
const flagName = (flag: string): string => flag.replace(/^-+/, '').replace(/=$/, '').replace(/-/g, '_');
const FLAG = /^--?[A-Za-z][\w-]*$/;
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=(.+)$/s;
const FLAG_WITH_VALUE = /^(--?[A-Za-z][\w-]*)=(.+)$/s;

/** The secrets an argv holds, each with where it came from; a value still templated is not one (the drill adds its rendered value). */
export function argSecrets(args: readonly string[]): Secret[] {
  const out: Secret[] = [];
  args.forEach((a, i) => {
    if (a.includes('{{')) return;
    const assignment = ASSIGNMENT.exec(a);
    if (assignment) {
      if (isCredentialName(assignment[1]!) || looksLikeSecret(assignment[2]!)) out.push({ value: assignment[2]!, from: `env.${assignment[1]}` });
      return;
    }
    const flag = FLAG_WITH_VALUE.exec(a);
    if (flag) {
      if (isCredentialName(flagName(flag[1]!)) || looksLikeSecret(flag[2]!)) out.push({ value: flag[2]!, from: flag[1]! });
      return;
    }
    if (a.startsWith('-')) return;
    const prev = args[i - 1];
    if (prev !== undefined && FLAG.test(prev) && isCredentialName(flagName(prev))) out.push({ value: a, from: prev });
    else if (looksLikeSecret(a)) out.push({ value: a, from: `arg ${i + 1}` });
  });
  return out.filter((s) => s.value.length >= MIN_SECRET_LENGTH);
}

export function envSecrets(env: Readonly<Record<string, string>>): Secret[] {
  return Object.entries(env)
    .filter(([name, value]) => !value.includes('{{') && value.length >= MIN_SECRET_LENGTH && (isCredentialName(name) || looksLikeSecret(value)))
    .map(([name, value]) => ({ value, from: `env.${name}` }));
}

export function launchSecrets(subject: { args: readonly string[]; env?: Readonly<Record<string, string>> }): Secret[] {
  return [...argSecrets(subject.args), ...envSecrets(subject.env ?? {})];
}

export function redactArgv(argv: readonly string[], known: readonly Secret[] = []): string[] {
  const secrets = [...known, ...argSecrets(argv)];
  return argv.map((a) => redact(a, secrets));
}

/** A report about processes with every command line's secrets replaced: the live machine gives no secret to look for, only names and shapes. */
export function redactProcessFields<T>(value: T): T {
  return walk(value, null) as T;
}

/** A whole argv, its program first: the args are counted as a subject's are (`arg 1` follows the program). */
export function redactCommandLine(argv: readonly string[]): string[] {
  return argv.length === 0 ? [] : [redactShapes(argv[0]!), ...redactArgv(argv.slice(1))];
}

function walk(value: unknown, key: string | null): unknown {
  if (typeof value === 'string') {
    if (key === 'command' || key === 'cmdline') return redactCommandLine(value.split(' ')).join(' ');
    return redactShapes(value);
  }
  if (Array.isArray(value)) {
    if ((key === 'argv' || key === 'cmdline') && value.every((v) => typeof v === 'string')) return redactCommandLine(value as string[]);
    return value.map((v) => walk(v, null));
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = walk(v, k);
    return out;
  }
  return value;
}
