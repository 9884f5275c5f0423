import { afterAll, afterEach, beforeAll } from 'vitest';
import { createRemote, type DrillRemote } from '../../../harness/remote/index.js';
import { ProcessJanitor } from './janitor.js';
import { ensureBuilt } from './subjects.js';

/**
 * The hooks every remote-talking fake-server test needs: the servers built, one real remote for
 * the file, every process a test learns of ended by identity after it, the remote closed at the end.
 */
export function remoteFixture(): { janitor: ProcessJanitor; remote: () => DrillRemote } {
  const janitor = new ProcessJanitor();
  let remote: DrillRemote | undefined;
  beforeAll(async () => {
    ensureBuilt();
    remote = await createRemote();
  });
  afterEach(() => janitor.cleanup());
  afterAll(() => remote?.close());
  return {
    janitor,
    remote: () => {
      if (!remote) throw new Error('the remote is not started yet (use it inside a test)');
      return remote;
    },
  };
}
