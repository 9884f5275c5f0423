/** A minimal example of a tool's arguments from its inputSchema: required properties only, placeholders meeting type and simple bounds. */

type JsonSchema = Record<string, unknown>;

const MAX_DEPTH = 8;

/** The arguments object for a tool whose inputSchema is `schema` ({} when it takes none). */
export function exampleArgs(schema: unknown): Record<string, unknown> {
  const value = exampleValue(schema, 0);
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A placeholder for one schema: required string "example", number 1, boolean false, enum's first value. */
export function exampleValue(schema: unknown, depth = 0): unknown {
  if (schema === null || typeof schema !== 'object' || depth > MAX_DEPTH) return null;
  const s = schema as JsonSchema;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if ('default' in s && s.default !== undefined) return s.default;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = s[key];
    if (Array.isArray(branches) && branches.length > 0) {
      // The first branch that is not `null`: `string | null` should read as a string.
      const pick = branches.find((b) => (b as JsonSchema)?.type !== 'null') ?? branches[0];
      return exampleValue(pick, depth + 1);
    }
  }
  if (Array.isArray(s.allOf) && s.allOf.length > 0) return exampleValue(Object.assign({}, ...(s.allOf as JsonSchema[])), depth + 1);

  switch (typeOf(s)) {
    case 'string':
      return exampleString(s);
    case 'integer':
      return exampleNumber(s, true);
    case 'number':
      return exampleNumber(s, false);
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array':
      return exampleArray(s, depth);
    case 'object':
      return exampleObject(s, depth);
    default:
      return null;
  }
}

function typeOf(s: JsonSchema): string | undefined {
  if (typeof s.type === 'string') return s.type;
  if (Array.isArray(s.type)) return (s.type as string[]).find((t) => t !== 'null') ?? (s.type[0] as string | undefined);
  if (s.properties !== undefined) return 'object';
  if (s.items !== undefined) return 'array';
  return undefined;
}

function exampleString(s: JsonSchema): string {
  let text = 'example';
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
  while (text.length < min) text += 'x';
  return text.slice(0, Math.max(min, Math.min(text.length, max)));
}

function exampleNumber(s: JsonSchema, integer: boolean): number {
  let n = 1;
  if (typeof s.minimum === 'number' && n < s.minimum) n = s.minimum;
  if (typeof s.exclusiveMinimum === 'number' && n <= s.exclusiveMinimum) n = s.exclusiveMinimum + 1;
  if (typeof s.maximum === 'number' && n > s.maximum) n = s.maximum;
  if (typeof s.exclusiveMaximum === 'number' && n >= s.exclusiveMaximum) n = s.exclusiveMaximum - 1;
  return integer ? Math.ceil(n) : n;
}

function exampleArray(s: JsonSchema, depth: number): unknown[] {
  const min = typeof s.minItems === 'number' ? s.minItems : 0;
  return Array.from({ length: min }, () => exampleValue(s.items, depth + 1));
}

function exampleObject(s: JsonSchema, depth: number): Record<string, unknown> {
  const props = (s.properties ?? {}) as Record<string, unknown>;
  const required = Array.isArray(s.required) ? (s.required as string[]) : [];
  const out: Record<string, unknown> = {};
  for (const name of required) out[name] = exampleValue(props[name] ?? {}, depth + 1);
  return out;
}
