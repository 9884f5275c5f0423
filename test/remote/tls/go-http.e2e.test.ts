/**
 * The drill remote's HTTPS from a go server (language-fakes.ts has the matrix): a configurable
 * HTTPS base URL, a hard-coded HTTPS host through the intercept proxy and a write keyed by name
 * each reach `sent` and `confirmed` and pass; the failing cases fail or stay unknown, exactly.
 */
import { describe, it } from 'vitest';
import { drillLanguage, expectEvidence, fakeAvailable, GO_HTTP } from './language-fakes.js';

const FILE = 'test/remote/tls/go-http.e2e.test.ts';

describe.runIf(fakeAvailable(GO_HTTP, FILE))("the go fake over the drill remote's HTTPS", () => {
  it('every case × sent and confirmed gives exactly the expected verdicts, and the evidence says why', async () => {
    expectEvidence(GO_HTTP, await drillLanguage(GO_HTTP));
  }, 300_000);
});
