/** The statements of a cleanup expectation as a scenario declares them; imports only the requirements, so config, expectation and reporters share it. */

import { EXITS_ON_EOF, STOPS_ON_CANCEL } from '../requirements/catalog.js';
import { practice, type Requirement } from '../requirements/requirement.js';

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

/** What each statement requires and where that comes from (`crash-drill requirements`). */
export const STATEMENT_REQUIREMENTS: Readonly<Record<StatementId, Requirement>> = {
  'stops-accepting-calls': practice(
    'stops-accepting-calls',
    'Once its input closes, the server takes no new call and starts no new work.',
    'The first part of a good cleanup expectation: a server that keeps acting after its input is gone acts for nobody; the spec asks it to exit, and until it has, nothing new should start.',
  ),
  'exits-within': EXITS_ON_EOF,
  'leaves-no-helper': practice(
    'leaves-no-helper',
    'The server leaves no helper process it owns once it has lost its client.',
    'The third part of a good cleanup expectation; the spec says nothing of the processes a server starts.',
  ),
  'no-write-after-loss': practice(
    'no-write-after-loss',
    'The server starts no new external write after it has lost its client.',
    'Work done after the client died cannot be tied to a session; the spec only asks the server to exit.',
  ),
  'writes-carry-key-and-session': practice(
    'writes-carry-key-and-session',
    'Every external write carries an idempotency key and the session it belongs to.',
    'A retry after a crash must not double an effect, and an operator must be able to tie each effect to its session; the spec has no idempotency rule (PR #3182 closed).',
  ),
  'remote-jobs-settle': practice(
    'remote-jobs-settle',
    'Every remote job the session started is completed or cancelled by the end of the grace period.',
    'A job left running after its session keeps acting with no one to read its result.',
  ),
  'authority-gone-at-revocation': practice(
    'authority-gone-at-revocation',
    'Once the session is revoked, nothing the server started can act with its authority.',
    'The authorization spec does not apply to stdio; revocation must still end what a session was allowed to do.',
  ),
  'records-every-action': practice(
    'records-every-action',
    'The server keeps its own record of every external action it starts: the request identifier before the request is sent, and its result, or that it is unresolved, before it exits.',
    'The fourth part of a good cleanup expectation: the request that left but whose answer never came back is the moment of a crash an operator must tie to its session, and the server’s own log is what the operator will have; the spec says nothing of a server’s record of its actions.',
  ),
  'cancel-honoured': STOPS_ON_CANCEL,
};
