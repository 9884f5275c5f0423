/** The kinds of drill client (drill-client.ts), in a module of their own: the CLI names them without loading a client. */
export type ClientKind = 'process' | 'inprocess';
export const CLIENT_KINDS: readonly ClientKind[] = ['process', 'inprocess'];
