/**
 * The statements of a cleanup expectation, as a scenario file declares them: their ids, their
 * labels and a declared statement. A leaf (it imports nothing): harness/config reads them from a
 * scenario file, harness/expectation/ judges them, and the reporters name them through
 * harness/results/constants.ts, none of them through another.
 */

/** The statements a drill can show, in the order reports list them. */
export const STATEMENT_IDS = [
  'stops-accepting-calls',
  'exits-within',
  'leaves-no-helper',
  'no-write-after-loss',
  'writes-carry-key-and-session',
  'remote-jobs-settle',
  'authority-gone-at-revocation',
  'records-every-action',
  'cancel-honoured',
] as const;

export type StatementId = (typeof STATEMENT_IDS)[number];

/** Each statement as a row label of the side-by-side table (a server's own sentence is its `text`). */
export const STATEMENT_LABELS: Readonly<Record<StatementId, string>> = {
  'stops-accepting-calls': 'stops accepting calls after its input closes',
  'exits-within': 'exits within N ms after its input closes',
  'leaves-no-helper': 'leaves no helper process behind',
  'no-write-after-loss': 'no new external write after losing its client',
  'writes-carry-key-and-session': 'every external write carries a key and its session',
  'remote-jobs-settle': 'remote jobs settle',
  'authority-gone-at-revocation': 'authority gone at revocation',
  'records-every-action': 'records every external action it starts, and its end',
  'cancel-honoured': 'cancel honoured',
};

/** One statement as a scenario declares it, normalised: `exits-within` always carries its ms. */
export interface DeclaredStatement {
  id: StatementId;
  /** exits-within: the ms after the loss of its client by which the server has exited. */
  ms?: number;
}
