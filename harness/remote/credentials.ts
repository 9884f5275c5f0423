import { createHash, randomBytes } from 'node:crypto';
import type { CredentialKind } from './types.js';

/** Short, one-way tag of a credential: enough to tell tokens apart in a journal. */
export function credentialId(secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 8);
}

/** Prefixed so a leak scanner can spot them in a server's output (like GitHub's `ghp_`). */
function newSecret(prefix: string): string {
  return prefix + randomBytes(24).toString('base64url');
}

export interface Session {
  sessionId: string;
  drillId: string;
  token: string;
  revokedT?: number;
  revokedBy?: string;
  jobDurationMs?: number;
}

export interface CredentialCheck {
  credential: CredentialKind;
  credentialId?: string;
  session?: Session;
  /** True when the credential is valid right now. */
  allowed: boolean;
}

/** Session tokens and the long-lived API key; answers "who is this bearer and is it valid". */
export class Credentials {
  private readonly byToken = new Map<string, Session>();
  private readonly byId = new Map<string, Session>();
  private readonly retiredKeys = new Set<string>();
  private counter = 0;
  apiKey = newSecret('cdk_');

  open(drillId: string, jobDurationMs?: number): Session {
    this.counter += 1;
    const session: Session = {
      sessionId: `s${this.counter}-${randomBytes(3).toString('hex')}`,
      drillId,
      token: newSecret('cdt_'),
      jobDurationMs,
    };
    this.byToken.set(session.token, session);
    this.byId.set(session.sessionId, session);
    return session;
  }

  get(sessionId: string): Session | undefined {
    return this.byId.get(sessionId);
  }

  rotateApiKey(): { previous: string; next: string } {
    const previous = this.apiKey;
    this.retiredKeys.add(previous);
    this.apiKey = newSecret('cdk_');
    return { previous, next: this.apiKey };
  }

  /** Every secret ever issued, for redaction of paths and header values. */
  secrets(): string[] {
    return [...this.byToken.keys(), this.apiKey, ...this.retiredKeys];
  }

  check(authorization: string | undefined): CredentialCheck {
    if (authorization === undefined || authorization === '') return { credential: 'none', allowed: false };
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!m) return { credential: 'unknown', credentialId: credentialId(authorization), allowed: false };
    const token = m[1];
    const id = credentialId(token);
    const session = this.byToken.get(token);
    if (session) return { credential: 'session', credentialId: id, session, allowed: session.revokedT === undefined };
    if (token === this.apiKey) return { credential: 'api-key', credentialId: id, allowed: true };
    if (this.retiredKeys.has(token)) return { credential: 'api-key', credentialId: id, allowed: false };
    return { credential: 'unknown', credentialId: id, allowed: false };
  }
}
