/** Public entry of the intercept preload (README.md in this folder). */
import { distFile } from '../util/paths.js';
import { INTERCEPT_VAR, parseOrigins } from './origins.js';

export { PreloadError, type PreloadErrorCode } from './errors.js';
export { INTERCEPT_VAR, normaliseOrigin, parseOrigins } from './origins.js';

/** The compiled preload; the harness may run from TypeScript sources, the subject never does. */
export function preloadPath(): string {
  return distFile('harness/preload/register.js');
}

/** The environment that routes a Node subject's listed origins to the drill remote (NODE_OPTIONS with the preload first, CRASH_DRILL_INTERCEPT). */
export function interceptEnv(origins: string[], existingNodeOptions?: string): Record<string, string> {
  const normalised = parseOrigins(origins);
  const importFlag = `--import=${quoteNodeOption(preloadPath())}`;
  const rest = existingNodeOptions?.trim();
  return {
    NODE_OPTIONS: rest ? `${importFlag} ${rest}` : importFlag,
    [INTERCEPT_VAR]: normalised.join(','),
  };
}

/** NODE_OPTIONS splits on spaces unless a value is in double quotes, inside which `\` escapes (Node docs, NODE_OPTIONS). Paths without such characters stay bare. */
function quoteNodeOption(value: string): string {
  if (!/[\s"\\]/.test(value)) return value;
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}
