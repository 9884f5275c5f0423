/**
 * Colour in one place (Playwright reporters/base.ts): only on a TTY, never with NO_COLOR,
 * forced with FORCE_COLOR. Files never get ANSI codes: only the console reporter asks for them.
 */
export interface Colors {
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  magenta(s: string): string;
  cyan(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

export function colorsEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return stream.isTTY === true;
}

export function makeColors(enabled: boolean): Colors {
  const wrap = (open: number, close: number) => (s: string) => (enabled ? `\u001b[${open}m${s}\u001b[${close}m` : s);
  return { red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39), magenta: wrap(35, 39), cyan: wrap(36, 39), dim: wrap(2, 22), bold: wrap(1, 22) };
}
