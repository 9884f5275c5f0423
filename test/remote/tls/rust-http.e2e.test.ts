/**
 * The drill remote's HTTPS from a rust server (language-fakes.ts has the matrix): a configurable
 * HTTPS base URL, a hard-coded HTTPS host through the intercept proxy and a write keyed by name
 * each reach `sent` and `confirmed` and pass; the failing cases fail or stay unknown, exactly.
 */
import { describe, it } from 'vitest';
import { drillLanguage, expectEvidence, fakeAvailable, RUST_HTTP } from './language-fakes.js';

const FILE = 'test/remote/tls/rust-http.e2e.test.ts';

describe.runIf(fakeAvailable(RUST_HTTP, FILE))("the rust fake over the drill remote's HTTPS", () => {
  it('every case × sent and confirmed gives exactly the expected verdicts, and the evidence says why', async () => {
    expectEvidence(RUST_HTTP, await drillLanguage(RUST_HTTP));
  }, 300_000);
});
