import { describe, expect, it } from 'vitest';
import { colorsEnabled, makeColors } from '../../reports/colors.js';

describe('colorsEnabled', () => {
  it('follows the TTY when no variable is set', () => {
    expect(colorsEnabled({ isTTY: true }, {})).toBe(true);
    expect(colorsEnabled({ isTTY: false }, {})).toBe(false);
    expect(colorsEnabled({}, {})).toBe(false);
  });

  it('FORCE_COLOR turns colour on off a TTY, and 0 or false turn it off on one', () => {
    expect(colorsEnabled({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorsEnabled({ isTTY: false }, { FORCE_COLOR: '' })).toBe(true);
    expect(colorsEnabled({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(false);
    expect(colorsEnabled({ isTTY: true }, { FORCE_COLOR: 'false' })).toBe(false);
  });

  it('NO_COLOR (non-empty, per no-color.org) wins over FORCE_COLOR and a TTY; an empty NO_COLOR is ignored', () => {
    expect(colorsEnabled({ isTTY: true }, { NO_COLOR: '1', FORCE_COLOR: '1' })).toBe(false);
    expect(colorsEnabled({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colorsEnabled({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
  });
});

describe('makeColors', () => {
  it('wraps in SGR codes when enabled and returns the text unchanged when not', () => {
    const on = makeColors(true);
    const off = makeColors(false);
    expect([on.red('x'), on.green('x'), on.yellow('x'), on.magenta('x'), on.dim('x'), on.bold('x')]).toEqual([
      '\u001b[31mx\u001b[39m',
      '\u001b[32mx\u001b[39m',
      '\u001b[33mx\u001b[39m',
      '\u001b[35mx\u001b[39m',
      '\u001b[2mx\u001b[22m',
      '\u001b[1mx\u001b[22m',
    ]);
    expect([off.red('x'), off.green('x'), off.yellow('x'), off.magenta('x'), off.dim('x'), off.bold('x')]).toEqual(['x', 'x', 'x', 'x', 'x', 'x']);
  });
});
