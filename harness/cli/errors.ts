/**
 * The one place a user error becomes exit 3: commands throw, `withUsageErrors` prints the
 * message and maps it. Anything else reaches main.ts, which prints it and exits 4.
 */
import { ConfigError } from '../config/errors.js';
import { VerifyPathError } from '../evidence/verify.js';
import { RegistryError } from '../run/registry.js';
import { ShardError } from '../plan/shard.js';
import { MergeError } from '../results/merge.js';
import { ReporterError } from '../../reports/registry.js';
import { EXIT } from './exit-codes.js';

/** A usage error raised by a command itself (a bad option value, a folder that is not one). */
export class UsageError extends Error {
  readonly code: string = 'CRASH_DRILL_USAGE';
}

/**
 * Errors a user can fix by changing what they typed or wrote, or the folder they run in (a run
 * registry that is not theirs alone, harness/run/registry.ts): exit 3 with the message.
 */
export function isUsageError(error: unknown): error is Error {
  return [UsageError, ConfigError, ReporterError, ShardError, MergeError, VerifyPathError, RegistryError].some((kind) => error instanceof kind);
}

type Out = { write(s: string): unknown };

/**
 * Runs a command; a usage error is printed as `crash-drill: [<command>: ]<message>` and gives
 * exit 3, anything else propagates (main.ts prints it and exits 4).
 */
export async function withUsageErrors(err: Out, command: string | null, body: () => Promise<number> | number): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (!isUsageError(error)) throw error;
    err.write(`crash-drill: ${command ? `${command}: ` : ''}${error.message}\n`);
    return EXIT.usage;
  }
}
