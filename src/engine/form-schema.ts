/**
 * The form a `data_entry` pause point asks for, read from its payload. The UI
 * renders these fields and the engine checks submitted data against them
 * (check-form.ts), so both agree on what a valid submission is.
 *
 * A payload shaped like a JSON Schema object (`type: "object"` with
 * `properties`) gives one field per property; any other plain object gives one
 * field per key, prefilled with its value.
 */
export type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'enum';

export interface FormField {
  name: string;
  label: string;
  type: FieldType;
  required: boolean;
  description?: string;
  options?: string[];
  initial?: string | number | boolean;
}

const MAX_FIELDS = 50;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isJsonSchemaObject(payload: Record<string, unknown>): boolean {
  return payload.type === 'object' && isRecord(payload.properties);
}

function fieldFromProperty(name: string, property: unknown, required: boolean): FormField {
  const schema = isRecord(property) ? property : {};
  const label = typeof schema.title === 'string' && schema.title.trim() ? schema.title : name;
  const description = typeof schema.description === 'string' ? schema.description : undefined;
  const initial = scalar(schema.default);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    return { name, label, type: 'enum', required, description, options: schema.enum.map(String), initial };
  }
  const type: FieldType =
    schema.type === 'number' || schema.type === 'integer' || schema.type === 'boolean' ? schema.type : 'string';
  return { name, label, type, required, description, initial };
}

function scalar(value: unknown): string | number | boolean | undefined {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : undefined;
}

function fieldFromValue(name: string, value: unknown): FormField {
  const type: FieldType = typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'string';
  const initial = scalar(value) ?? (value === null || value === undefined ? undefined : JSON.stringify(value));
  return { name, label: name, type, required: false, initial };
}

export function formFields(payload: unknown): FormField[] {
  if (!isRecord(payload)) return [];
  if (isJsonSchemaObject(payload)) {
    const properties = payload.properties as Record<string, unknown>;
    const required = new Set(Array.isArray(payload.required) ? payload.required.map(String) : []);
    return Object.keys(properties)
      .slice(0, MAX_FIELDS)
      .map((name) => fieldFromProperty(name, properties[name], required.has(name)));
  }
  return Object.keys(payload)
    .slice(0, MAX_FIELDS)
    .map((name) => fieldFromValue(name, payload[name]));
}
