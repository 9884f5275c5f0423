/** What every reader fills: the servers found and the problems met, one per line. */
import type { ConfigFile, ClientConfigProblem, ConfiguredServer } from '../types.js';

export interface ReaderOut {
  servers: ConfiguredServer[];
  problems: ClientConfigProblem[];
  /** Files this one names, to be read too when they exist (a project's .mcp.json). */
  more?: ConfigFile[];
}
