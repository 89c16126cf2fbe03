/**
 * A small JSON Schema (draft 2020-12) validator for tests, covering exactly the
 * keywords docs/audit-log.schema.json uses. Any other keyword throws, so the
 * schema cannot grow a rule this checker silently ignores.
 */
export interface SchemaIssue {
  path: string;
  message: string;
}

type Schema = Record<string, unknown> | boolean;

const ANNOTATIONS = new Set(['$schema', '$id', '$comment', 'title', 'description', 'default', 'examples', 'format', 'deprecated', 'readOnly', 'writeOnly']);
const ASSERTIONS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'anyOf',
  'oneOf',
]);

export function checkJsonSchema(schema: unknown, value: unknown): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  check(asSchema(schema, '#'), value, '$', issues);
  return issues;
}

function asSchema(schema: unknown, at: string): Schema {
  if (typeof schema === 'boolean') return schema;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw new Error(`Not a schema at ${at}`);
  for (const keyword of Object.keys(schema)) {
    if (!ANNOTATIONS.has(keyword) && !ASSERTIONS.has(keyword)) throw new Error(`json-schema-check does not support "${keyword}" (at ${at})`);
  }
  return schema as Record<string, unknown>;
}

function check(schema: Schema, value: unknown, path: string, issues: SchemaIssue[]): void {
  if (schema === true) return;
  if (schema === false) {
    issues.push({ path, message: 'no value is allowed here' });
    return;
  }
  const fail = (message: string) => issues.push({ path, message });
  const { type } = schema;
  if (type !== undefined) {
    const types = Array.isArray(type) ? type : [type];
    if (!types.some((name) => hasType(value, String(name)))) {
      fail(`expected ${types.join(' or ')}, got ${typeName(value)}`);
      return;
    }
  }
  if ('const' in schema && !jsonEqual(schema.const, value)) fail(`expected ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => jsonEqual(option, value))) fail(`expected one of ${JSON.stringify(schema.enum)}`);

  if (typeof value === 'string') {
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) fail(`does not match ${schema.pattern}`);
    const length = [...value].length;
    if (typeof schema.minLength === 'number' && length < schema.minLength) fail(`shorter than ${schema.minLength}`);
    if (typeof schema.maxLength === 'number' && length > schema.maxLength) fail(`longer than ${schema.maxLength}`);
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) fail(`less than ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) fail(`more than ${schema.maximum}`);
    if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) fail(`not more than ${schema.exclusiveMinimum}`);
    if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) fail(`not less than ${schema.exclusiveMaximum}`);
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) fail(`fewer than ${schema.minItems} items`);
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) fail(`more than ${schema.maxItems} items`);
    if (schema.items !== undefined) {
      const items = asSchema(schema.items, `${path}.items`);
      value.forEach((item, index) => check(items, item, `${path}[${index}]`, issues));
    }
  }
  if (isObject(value)) checkObject(schema, value, path, issues);

  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (!Array.isArray(branches)) continue;
    const passing = branches.filter((branch, index) => checkJsonSchemaAt(asSchema(branch, `${path}.${keyword}[${index}]`), value)).length;
    if (keyword === 'anyOf' ? passing === 0 : passing !== 1) fail(`${keyword}: ${passing} of ${branches.length} alternatives match`);
  }
}

function checkObject(schema: Record<string, unknown>, value: Record<string, unknown>, path: string, issues: SchemaIssue[]): void {
  const properties = isObject(schema.properties) ? schema.properties : {};
  if (Array.isArray(schema.required)) {
    for (const name of schema.required) {
      if (!Object.hasOwn(value, String(name))) issues.push({ path, message: `missing required member "${String(name)}"` });
    }
  }
  for (const [name, member] of Object.entries(value)) {
    const memberPath = `${path}.${name}`;
    if (Object.hasOwn(properties, name)) {
      check(asSchema(properties[name], memberPath), member, memberPath, issues);
    } else if (schema.additionalProperties !== undefined) {
      check(asSchema(schema.additionalProperties, memberPath), member, memberPath, issues);
    }
  }
}

function checkJsonSchemaAt(schema: Schema, value: unknown): boolean {
  const issues: SchemaIssue[] = [];
  check(schema, value, '$', issues);
  return issues.length === 0;
}

function hasType(value: unknown, name: string): boolean {
  switch (name) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    default:
      throw new Error(`Unknown JSON Schema type "${name}"`);
  }
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, index) => jsonEqual(item, b[index]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]));
  }
  return false;
}
