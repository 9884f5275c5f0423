/**
 * The drill remote's HTTPS from a python server (language-fakes.ts has the matrix): a configurable
 * HTTPS base URL, a hard-coded HTTPS host through the intercept proxy and a write keyed by name
 * each reach `sent` and `confirmed` and pass; the failing cases fail or stay unknown, exactly.
 */
import { describe, it } from 'vitest';
import { drillLanguage, expectEvidence, fakeAvailable, PYTHON_HTTPS } from './language-fakes.js';

const FILE = 'test/remote/tls/python-https.e2e.test.ts';

describe.runIf(fakeAvailable(PYTHON_HTTPS, FILE))("the python fake over the drill remote's HTTPS", () => {
  it('every case × sent and confirmed gives exactly the expected verdicts, and the evidence says why', async () => {
    expectEvidence(PYTHON_HTTPS, await drillLanguage(PYTHON_HTTPS));
  }, 300_000);
});
