/** What a tool is: what the model is told (name, description, input schema), and where it comes from. */
export interface ToolDefinitionText {
  name: string;
  description: string;
  /** The JSON Schema the model gets for the tool's arguments. */
  parameters: Record<string, unknown>;
  /** `ToolDefinition.sourceDefinition`: the whole definition at its source (an MCP server's listing), when there is one. */
  sourceDefinition?: Record<string, unknown>;
}

/**
 * The SHA-256 (hex) of a tool's definition: its name, description, the JSON
 * Schema of its input and, for a tool that comes from elsewhere, its whole
 * definition there (an MCP tool's title, full description, input and output
 * schemas and annotations, as the server lists it now), as canonical JSON
 * (object members sorted by key, no whitespace). A rule records it when made
 * and stops applying when the tool's definition no longer has it; a card
 * records it too, and an approval runs only while the tool still has it.
 *
 * A tool without a source hashes exactly as before `sourceDefinition` was
 * added (an absent member is left out), so the app's own tools keep their
 * stored hashes. An MCP tool's hash is new: a rule or card stored with the
 * old one reads as made for another definition, and asks again, once.
 * Uses the `crypto` global: Node 20, browsers and workers all have it.
 */
export async function definitionHash({ name, description, parameters, sourceDefinition }: ToolDefinitionText): Promise<string> {
  const text = canonicalJson({ name, description, parameters, sourceDefinition });
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
