import type { ElicitRequestFormParams } from '@modelcontextprotocol/client';

type Schema = Record<string, unknown>;
type Answer = Record<string, string | number | boolean | string[]>;

export interface ElicitationForm {
  /** A `data_entry` card's payload: a JSON Schema object the card renders as a form (src/engine/form-schema.ts). */
  payload: { type: 'object'; properties: Record<string, Schema>; required: string[] };
  /** The submitted form as the content the server asked for. */
  toContent(submitted: Record<string, unknown>): Answer;
}

function isRecord(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The choices of an enum schema, plain (`enum`) or titled (`oneOf`/`anyOf` of `const`), with their titles. */
function choices(schema: Schema): { values: string[]; titles: string[] } | null {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames.map(String) : [];
    return { values: schema.enum.map(String), titles: names };
  }
  const options = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : null;
  if (!options || !options.every((o) => isRecord(o) && 'const' in o)) return null;
  return { values: options.map((o) => String((o as Schema).const)), titles: options.map((o) => String((o as Schema).title ?? (o as Schema).const)) };
}

function describe(schema: Schema, extra?: string): string | undefined {
  const parts = [typeof schema.description === 'string' ? schema.description : '', extra ?? ''].filter(Boolean);
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/**
 * The form for an elicitation's requested schema (flat, primitive properties
 * by the MCP spec). Titled choices list their titles in the field's
 * description; multi-select arrays become a comma-separated text field whose
 * answer is split back into the array the server asked for.
 */
export function elicitationForm(requested: ElicitRequestFormParams['requestedSchema']): ElicitationForm {
  const properties: Record<string, Schema> = {};
  const multi = new Set<string>();
  const source = isRecord(requested.properties) ? (requested.properties as Record<string, unknown>) : {};
  for (const [name, raw] of Object.entries(source)) {
    if (!isRecord(raw)) continue;
    const title = typeof raw.title === 'string' ? raw.title : name;
    if (raw.type === 'array' && isRecord(raw.items)) {
      const options = choices(raw.items);
      multi.add(name);
      const listed = options ? `One or more of: ${options.values.map((v, i) => (options.titles[i] && options.titles[i] !== v ? `${v} (${options.titles[i]})` : v)).join(', ')}, separated by commas.` : 'Separate values by commas.';
      const initial = Array.isArray(raw.default) ? raw.default.map(String).join(', ') : undefined;
      properties[name] = { type: 'string', title, description: describe(raw, listed), ...(initial ? { default: initial } : {}) };
      continue;
    }
    const options = choices(raw);
    if (options) {
      const titled = options.titles.some((t, i) => t !== options.values[i]);
      const legend = titled ? options.values.map((v, i) => `${v} = ${options.titles[i]}`).join(', ') : undefined;
      properties[name] = { type: 'string', title, enum: options.values, description: describe(raw, legend), ...(raw.default !== undefined ? { default: raw.default } : {}) };
      continue;
    }
    const type = raw.type === 'number' || raw.type === 'integer' || raw.type === 'boolean' ? raw.type : 'string';
    const format = typeof raw.format === 'string' ? `(${raw.format})` : undefined;
    properties[name] = { type, title, description: describe(raw, format), ...(raw.default !== undefined ? { default: raw.default } : {}) };
  }
  const required = Array.isArray(requested.required) ? requested.required.filter((name): name is string => typeof name === 'string' && name in properties) : [];
  return {
    payload: { type: 'object', properties, required },
    toContent(submitted) {
      const content: Answer = {};
      for (const name of Object.keys(properties)) {
        if (!Object.hasOwn(submitted, name)) continue;
        const value = submitted[name];
        if (multi.has(name)) {
          const items = String(value ?? '').split(',').map((item) => item.trim()).filter(Boolean);
          if (items.length > 0) content[name] = items;
        } else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
          // An optional text field left empty is not an answer.
          if (value !== '' || required.includes(name)) content[name] = value;
        }
      }
      return content;
    },
  };
}
