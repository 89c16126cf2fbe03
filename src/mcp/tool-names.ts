/**
 * Names the model calls MCP tools by. OpenAI (and most compatible endpoints)
 * accept function names matching `^[a-zA-Z0-9_-]{1,64}$`; MCP tool names may
 * hold dots, slashes, spaces or anything else, and two servers may both have
 * an `echo`. So each tool is offered as `<server prefix>__<tool>`, with every
 * other character replaced by `_`.
 *
 * Deterministic: the same servers and tools always give the same names (a
 * stored call keeps naming the same tool after a reload). A name too long to
 * fit, or one of the app's own, gets a short hash of its server and original
 * name instead of its tail. Two tools of one server that would get the same
 * name (`a.b` and `a_b`) get none: neither is offered, since whichever kept
 * the name, the other's calls (and rules) would reach it. Two tools of
 * different servers that would share a name each get their hash instead, so
 * neither depends on which was listed first.
 */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_NAME = 64;
const MAX_PREFIX = 24;
const SEPARATOR = '__';

export interface NamedTool {
  serverId: string;
  prefix: string;
  /** The tool's name on its server, exactly as listed. */
  toolName: string;
}

function clean(text: string): string {
  return text.replace(/[^a-zA-Z0-9_-]+/g, '_');
}

/** FNV-1a, 32 bits, as 8 hex digits: short, synchronous and stable everywhere. */
export function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * A new server's prefix: from its name, or else its host's first label, made
 * unique among `taken` by a number.
 */
export function serverPrefix(name: string | null, url: string, taken: ReadonlySet<string>): string {
  const host = new URL(url).hostname.split('.').find((label) => label && label !== 'www') ?? 'mcp';
  const base = clean(name?.trim() || host).replace(/^_+|_+$/g, '').replace(/__+/g, '_').slice(0, MAX_PREFIX - 3).toLowerCase() || 'mcp';
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}${n}`)) return `${base}${n}`;
}

function hashed(tool: NamedTool): string {
  const tag = `_${shortHash(`${tool.serverId}\u0000${tool.toolName}`)}`;
  return `${tool.prefix}${SEPARATOR}${clean(tool.toolName)}`.slice(0, MAX_NAME - tag.length) + tag;
}

/** The name a tool gets on its own: `prefix__tool`, or its hashed form when that is too long or one of the app's. */
export function modelToolName(tool: NamedTool, reserved: ReadonlySet<string> = new Set()): string {
  const plain = `${tool.prefix}${SEPARATOR}${clean(tool.toolName)}`;
  return plain.length <= MAX_NAME && !reserved.has(plain) ? plain : hashed(tool);
}

/**
 * The model-facing name of every tool, as a map from that name to the tool.
 * `reserved` are names of the app's own tools, which MCP tools never take.
 * A tool left out of the map has no name: it shares one with another tool of
 * its server (see above), or a hash collision left it without one of its own.
 */
export function assignToolNames(tools: readonly NamedTool[], reserved: ReadonlySet<string> = new Set()): Map<string, NamedTool> {
  const first = groupByName(tools.map((tool) => [modelToolName(tool, reserved), tool]));
  const entries: [string, NamedTool][] = [];
  for (const [name, group] of first) {
    if (group.length === 1) entries.push([name, group[0]!]);
    else for (const tool of group) if (group.filter((other) => other.serverId === tool.serverId).length === 1) entries.push([hashed(tool), tool]);
  }
  const named = new Map<string, NamedTool>();
  for (const [name, group] of groupByName(entries)) if (group.length === 1) named.set(name, group[0]!);
  return named;
}

/**
 * The tools of one server that share a model-facing name, by that name: none
 * of them is offered (the listing refuses them, screen-listing.ts).
 */
export function sharedNames(tools: readonly NamedTool[], reserved: ReadonlySet<string> = new Set()): Map<string, NamedTool[]> {
  return new Map([...groupByName(tools.map((tool) => [modelToolName(tool, reserved), tool]))].filter(([, group]) => group.length > 1));
}

function groupByName(entries: readonly [string, NamedTool][]): Map<string, NamedTool[]> {
  const groups = new Map<string, NamedTool[]>();
  for (const [name, tool] of entries) {
    const group = groups.get(name);
    if (group) group.push(tool);
    else groups.set(name, [tool]);
  }
  return groups;
}
