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

export interface RemoteSession {
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
  session?: RemoteSession;
  /** The drill a drill's own API key was issued to (Credentials.apiKeyFor). */
  drillId?: string;
  /** True when the credential is valid right now. */
  allowed: boolean;
}

/** Session tokens and the long-lived API key; answers "who is this bearer and is it valid". */
export class Credentials {
  private readonly byToken = new Map<string, RemoteSession>();
  private readonly byId = new Map<string, RemoteSession>();
  private readonly retiredKeys = new Set<string>();
  /** Each drill's own long-lived key, current: drill id -> key. */
  private readonly drillKeys = new Map<string, string>();
  /** Every drill key ever issued, current and rotated out: key -> drill id. */
  private readonly keyDrills = new Map<string, string>();
  private counter = 0;
  /** The remote-wide key, tied to no drill. */
  apiKey = newSecret('cdk_');

  /** The drill's own API key, issued on first use: its requests are the drill's even when the sender is gone before lookup. */
  apiKeyFor(drillId: string): string {
    let key = this.drillKeys.get(drillId);
    if (key === undefined) {
      key = newSecret('cdk_');
      this.drillKeys.set(drillId, key);
      this.keyDrills.set(key, drillId);
    }
    return key;
  }

  open(drillId: string, jobDurationMs?: number): RemoteSession {
    this.counter += 1;
    const session: RemoteSession = {
      sessionId: `s${this.counter}-${randomBytes(3).toString('hex')}`,
      drillId,
      token: newSecret('cdt_'),
      jobDurationMs,
    };
    this.byToken.set(session.token, session);
    this.byId.set(session.sessionId, session);
    return session;
  }

  get(sessionId: string): RemoteSession | undefined {
    return this.byId.get(sessionId);
  }

  /** Rotates the drill's own key with a drill id, else the remote-wide one. */
  rotateApiKey(drillId?: string): { previous: string; next: string } {
    if (drillId !== undefined) {
      const previous = this.apiKeyFor(drillId);
      const next = newSecret('cdk_');
      this.drillKeys.set(drillId, next);
      this.keyDrills.set(next, drillId);
      return { previous, next };
    }
    const previous = this.apiKey;
    this.retiredKeys.add(previous);
    this.apiKey = newSecret('cdk_');
    return { previous, next: this.apiKey };
  }

  /** Every secret ever issued, for redaction of paths and header values. */
  secrets(): string[] {
    return [...this.byToken.keys(), this.apiKey, ...this.retiredKeys, ...this.keyDrills.keys()];
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
    const drillId = this.keyDrills.get(token);
    if (drillId !== undefined) return { credential: 'api-key', credentialId: id, drillId, allowed: this.drillKeys.get(drillId) === token };
    if (this.retiredKeys.has(token)) return { credential: 'api-key', credentialId: id, allowed: false };
    return { credential: 'unknown', credentialId: id, allowed: false };
  }
}
