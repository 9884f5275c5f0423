export { ConsoleReporter } from './console.js';
export { JsonReporter, writeJsonAtomic } from './json.js';
export { summaryLine } from './summary-line.js';
export type { Reporter, RunStartInfo } from './types.js';
