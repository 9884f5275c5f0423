/** What every reader fills: the servers found and the problems met, one per line. */
import type { ConfigProblem, ConfiguredServer } from '../types.js';

export interface ReaderOut {
  servers: ConfiguredServer[];
  problems: ConfigProblem[];
}
