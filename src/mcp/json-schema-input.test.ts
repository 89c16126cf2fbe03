import { describe, expect, it } from 'vitest';
import { inputFromJsonSchema, jsonSchemaChecker } from './json-schema-input.ts';

const sumSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
  additionalProperties: false,
};

describe('a server’s JSON Schema as a tool input', () => {
  it('accepts what the schema accepts and keeps every property', () => {
    expect(inputFromJsonSchema(sumSchema).parse({ a: 1, b: 2 })).toEqual({ a: 1, b: 2 });
  });

  it('says what is wrong in words the model can act on', () => {
    const parsed = inputFromJsonSchema(sumSchema).safeParse({ a: 'one', z: true });
    expect(parsed.success).toBe(false);
    const message = parsed.error!.issues[0]!.message;
    expect(message).toContain('does not have required property "b"');
    expect(message).toContain('a: Instance type "string" is invalid. Expected "number".');
    expect(message).toContain('additional properties');
    expect(message).not.toContain('does not match schema.');
  });

  it('refuses anything but an object', () => {
    expect(inputFromJsonSchema({ type: 'object' }).safeParse([1]).success).toBe(false);
    expect(inputFromJsonSchema({ type: 'object' }).safeParse('x').success).toBe(false);
  });

  it('follows local $refs and 2020-12 keywords without compiling code', () => {
    const check = jsonSchemaChecker({
      type: 'object',
      $defs: { id: { type: 'string', pattern: '^[a-z]+$' } },
      properties: { id: { $ref: '#/$defs/id' }, tags: { type: 'array', prefixItems: [{ type: 'string' }] } },
    });
    expect(check({ id: 'abc', tags: ['x'] })).toEqual([]);
    expect(check({ id: 'ABC', tags: [1] }).map((i) => i.pointer)).toEqual(['/id', '/tags/0']);
  });
});
