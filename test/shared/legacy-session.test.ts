/** The legacy session's Client validates tools' output schemas as the SDK's default does, with Ajv made on first use (legacy-session.ts). */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { describe, expect, it } from 'vitest';
import { AjvOnFirstUse } from '../../harness/shared/legacy-session.js';

const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } as const;

describe('AjvOnFirstUse', () => {
  it('accepts what the SDK default accepts and refuses what it refuses, with the same message', () => {
    const lazy = new AjvOnFirstUse().getValidator<{ a: string }>(schema);
    const sdk = new AjvJsonSchemaValidator().getValidator<{ a: string }>(schema);
    expect(lazy({ a: 'x' })).toEqual({ valid: true, data: { a: 'x' }, errorMessage: undefined });
    expect(lazy({ a: 'x' })).toEqual(sdk({ a: 'x' }));
    const refused = lazy({ a: 1 });
    expect(refused.valid).toBe(false);
    expect(refused).toEqual(sdk({ a: 1 }));
  });
});
