import { canonicalJson } from '../audit/canonical-json.ts';
import { sha256Hex } from '../audit/sha256.ts';
import type { McpToolDefinition, McpToolRecord } from '../storage/records/mcp-server-record.ts';

/**
 * Rug-pull protection: a tool's definition is pinned when first seen, and a
 * later `tools/list` that brings it changed does not replace what the user
 * saw; the change is kept (and shown on the next call's card) until the user
 * approves a call of the changed tool.
 *
 * The hash covers everything that changes what a call does or may do unasked:
 * the name, title, description, input and output schemas, and the annotations
 * (a tool that turns "read-only" could run unasked on a trusted server), and
 * who may call it (MCP Apps' visibility: an app-only tool turned the model's is a new tool to the model), and
 * the `ui://` resource of its view (MCP Apps).
 */
export async function definitionHash(definition: McpToolDefinition): Promise<string> {
  const { name, title, description, inputSchema, outputSchema, annotations, visibility, viewUri } = definition;
  // visibility and viewUri are absent (left out of the JSON) for a tool both may call and one without a view: such tools keep the hashes they had.
  return sha256Hex(canonicalJson({ name, title, description, inputSchema, outputSchema, annotations, visibility, viewUri }));
}

/** A `tools/list`'s definitions with their hashes (hashing is async; pinning must not be, see `pinTools`). */
export async function hashDefinitions(listed: readonly McpToolDefinition[]): Promise<HashedDefinition[]> {
  return Promise.all(listed.map(async (definition) => ({ definition, hash: await definitionHash(definition) })));
}

export interface HashedDefinition {
  definition: McpToolDefinition;
  hash: string;
}

/**
 * The stored tools after a `tools/list`: new ones pinned as listed, known
 * ones keep their pin and switch, and those it no longer has stay, marked
 * not listed, with their pin. A pin is never forgotten while the server is
 * stored: otherwise one listing without a tool and one with it changed would
 * pin the change as new, unseen. Synchronous, so that it runs inside the
 * store's update against the row as stored then, whatever another tab wrote.
 */
export function pinTools(previous: readonly McpToolRecord[], listed: readonly HashedDefinition[], now: number): McpToolRecord[] {
  const known = new Map(previous.map((tool) => [tool.definition.name, tool]));
  const current = listed.map(({ definition, hash }): McpToolRecord => {
    const before = known.get(definition.name);
    if (!before) return { definition, hash, pinned: { hash, definition, at: now }, enabled: true };
    const { listed: _gone, ...kept } = before;
    return { ...kept, definition, hash };
  });
  const names = new Set(listed.map(({ definition }) => definition.name));
  const left = previous.filter((tool) => !names.has(tool.definition.name)).map((tool): McpToolRecord => ({ ...tool, listed: false }));
  return [...current, ...left];
}

/** Whether the server's last `tools/list` had this tool. */
export function isListed(tool: McpToolRecord): boolean {
  return tool.listed !== false;
}

export function hasChanged(tool: McpToolRecord): boolean {
  return tool.hash !== tool.pinned.hash;
}

/** The tool with its current definition accepted as the pinned one. */
export function acceptDefinition(tool: McpToolRecord, now: number): McpToolRecord {
  return { ...tool, pinned: { hash: tool.hash, definition: tool.definition, at: now } };
}

/**
 * What changed from the pinned definition to the current one, in plain text
 * lines: the description before and after, and every schema or annotation
 * value added, removed or changed, by its path.
 */
export function describeChange(pinned: McpToolDefinition, current: McpToolDefinition): string[] {
  const lines: string[] = [];
  if ((pinned.title ?? '') !== (current.title ?? '')) lines.push(`Title: “${pinned.title ?? ''}” → “${current.title ?? ''}”`);
  if (pinned.description !== current.description) {
    lines.push('Description was:', indent(pinned.description || '(none)'), 'Description is now:', indent(current.description || '(none)'));
  }
  const sections: [string, unknown, unknown][] = [
    ['Input schema', pinned.inputSchema, current.inputSchema],
    ['Output schema', pinned.outputSchema ?? {}, current.outputSchema ?? {}],
    ['Annotations', pinned.annotations ?? {}, current.annotations ?? {}],
  ];
  for (const [label, before, after] of sections) {
    for (const change of leafChanges(before, after)) lines.push(`${label} ${change}`);
  }
  return lines;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

function leaves(value: unknown, path: string, into: Map<string, string>): Map<string, string> {
  if (Array.isArray(value) && value.length > 0) value.forEach((item, i) => leaves(item, `${path}/${i}`, into));
  else if (typeof value === 'object' && value !== null && Object.keys(value).length > 0) {
    for (const [key, item] of Object.entries(value)) leaves(item, `${path}/${key}`, into);
  } else into.set(path || '/', JSON.stringify(value) ?? 'undefined');
  return into;
}

function leafChanges(before: unknown, after: unknown): string[] {
  const a = leaves(before, '', new Map());
  const b = leaves(after, '', new Map());
  const out: string[] = [];
  for (const [path, was] of a) {
    const now = b.get(path);
    if (now === undefined) out.push(`${path}: removed (was ${was})`);
    else if (now !== was) out.push(`${path}: ${was} → ${now}`);
  }
  for (const [path, now] of b) if (!a.has(path)) out.push(`${path}: added ${now}`);
  return out;
}
