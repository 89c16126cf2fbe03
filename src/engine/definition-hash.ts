/** What the model is told a tool is: the three parts a definition hash covers. */
export interface ToolDefinitionText {
  name: string;
  description: string;
  /** The JSON Schema the model gets for the tool's arguments. */
  parameters: Record<string, unknown>;
}

/**
 * The SHA-256 (hex) of a tool's definition: its name, description and the
 * JSON Schema of its input, as canonical JSON (object members sorted by key,
 * no whitespace). A rule records it when made and stops applying when the
 * tool's definition no longer has it — whatever in the three changed.
 * Uses the `crypto` global: Node 20, browsers and workers all have it.
 */
export async function definitionHash({ name, description, parameters }: ToolDefinitionText): Promise<string> {
  const text = canonicalJson({ name, description, parameters });
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/**
 * JSON with every object's members sorted by key (UTF-16 order), so the same
 * definition hashes the same however its schema was put together. Values that
 * JSON leaves out of objects (undefined) are left out here too.
 */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const members = Object.keys(record)
      .sort()
      .filter((key) => record[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
