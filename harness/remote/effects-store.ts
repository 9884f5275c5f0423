import type { Effect } from './types.js';

export interface CommitInput {
  kind: string;
  drillId?: string;
  sessionId?: string;
  op: string;
  target?: string;
  idempotencyKey?: string;
  /** A key the handler named (a resource name, an object key): it, not the header, makes the write idempotent. */
  namedKey?: string;
  seq: number;
  t: number;
}

export type CommitResult =
  | { status: 'created'; effect: Effect }
  | { status: 'replayed'; effect: Effect }
  /** The key was used before for a different operation (Stripe answers this with an error too). */
  | { status: 'conflict'; effect: Effect };

/** Effects and idempotency keys per drill; `commit` is synchronous (no await between lookup and insert), so one key never creates twice. */
export class EffectsStore {
  private readonly effects: Effect[] = [];
  private readonly byKey = new Map<string, Effect>();
  private counter = 0;

  commit(input: CommitInput): CommitResult {
    // Named keys have their own space: a resource called like some request's Idempotency-Key is another thing.
    const scopedKey =
      input.namedKey !== undefined
        ? `${input.drillId ?? ''}\u0000name\u0000${input.namedKey}`
        : input.idempotencyKey === undefined
          ? undefined
          : `${input.drillId ?? ''}\u0000${input.idempotencyKey}`;
    if (scopedKey !== undefined) {
      const existing = this.byKey.get(scopedKey);
      if (existing) {
        if (existing.kind !== input.kind || existing.op !== input.op || existing.target !== input.target) {
          return { status: 'conflict', effect: existing };
        }
        existing.replays += 1;
        return { status: 'replayed', effect: existing };
      }
    }
    this.counter += 1;
    const effect: Effect = {
      id: `${input.kind === 'job' ? 'job' : 'eff'}_${this.counter}`,
      kind: input.kind,
      drillId: input.drillId,
      sessionId: input.sessionId,
      op: input.op,
      target: input.target,
      idempotencyKey: input.idempotencyKey,
      ...(input.namedKey !== undefined ? { namedKey: input.namedKey } : {}),
      seq: input.seq,
      t: input.t,
      replays: 0,
    };
    this.effects.push(effect);
    if (scopedKey !== undefined) this.byKey.set(scopedKey, effect);
    return { status: 'created', effect };
  }

  list(drillId?: string): Effect[] {
    return this.effects.filter((e) => drillId === undefined || e.drillId === drillId).map((e) => ({ ...e }));
  }
}
