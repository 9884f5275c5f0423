import { afterAll, afterEach, beforeAll } from 'vitest';
import { createRemote, type DrillRemote } from '../../../harness/remote/index.js';
import { Cleanup } from '../../support/cleanup.js';
import { ensureBuilt } from './subjects.js';

/**
 * The hooks every remote-talking fake-server test needs: the servers built, one real remote for
 * the file, every process a test learns of ended by identity after it, the remote closed at the end.
 */
export function remoteFixture(): { janitor: Cleanup; remote: () => DrillRemote } {
  const janitor = new Cleanup();
  let remote: DrillRemote | undefined;
  beforeAll(async () => {
    ensureBuilt();
    remote = await createRemote();
  });
  afterEach(() => janitor.run());
  afterAll(() => remote?.close());
  return {
    janitor,
    remote: () => {
      if (!remote) throw new Error('the remote is not started yet (use it inside a test)');
      return remote;
    },
  };
}
