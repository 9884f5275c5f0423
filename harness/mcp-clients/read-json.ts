/**
 * Reads a client's JSON as the client does: with comments for VS Code, Zed, Gemini CLI; strictly
 * for the others, so a comment is reported. A problem names file and line:column, never content.
 */
import { readFileSync } from 'node:fs';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

export type ReadResult = { ok: true; value: unknown } | { ok: false; message: string };

export function readConfigText(file: string): { ok: true; text: string } | { ok: false; message: string } {
  try {
    return { ok: true, text: readFileSync(file, 'utf8') };
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    const why =
      e.code === 'EISDIR' ? 'is a folder, expected a file' : e.code === 'EACCES' ? 'cannot be read by this user (permission denied)' : (e.code ?? e.message);
    return { ok: false, message: `cannot read it: ${why}` };
  }
}

function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before[before.length - 1]!.length + 1}`;
}

export function parseJsonText(text: string, comments: boolean): ReadResult {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: comments, disallowComments: !comments, allowEmptyContent: true });
  if (errors.length > 0) {
    const e = errors[0]!;
    const code = printParseErrorCode(e.error);
    const what = code === 'InvalidCommentToken' ? 'a comment, which this client does not allow (strict JSON)' : code;
    return { ok: false, message: `expected JSON${comments ? ' (comments allowed)' : ''}, found ${what} at ${lineColumn(text, e.offset)}` };
  }
  if (value === undefined) return { ok: true, value: {} };
  return { ok: true, value };
}

export function describeType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}
