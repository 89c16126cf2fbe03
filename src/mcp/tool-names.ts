/**
 * Names the model calls MCP tools by. OpenAI (and most compatible endpoints)
 * accept function names matching `^[a-zA-Z0-9_-]{1,64}$`; MCP tool names may
 * hold dots, slashes, spaces or anything else, and two servers may both have
 * an `echo`. So each tool is offered as `<server prefix>__<tool>`, with every
 * other character replaced by `_`.
 *
 * Deterministic: the same servers and tools always give the same names (a
 * stored call keeps naming the same tool after a reload). Where two tools
 * would get the same name (after replacing characters, or after cutting a
 * long name), each of them gets a short hash of its server and original name
 * instead of the cut tail, so neither depends on which was listed first.
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

/**
 * The model-facing name of every tool, as a map from that name to the tool.
 * `reserved` are names of the app's own tools, which MCP tools never take.
 */
export function assignToolNames(tools: readonly NamedTool[], reserved: ReadonlySet<string> = new Set()): Map<string, NamedTool> {
  const plain = tools.map((tool) => `${tool.prefix}${SEPARATOR}${clean(tool.toolName)}`);
  const count = new Map<string, number>();
  for (const name of plain) count.set(name, (count.get(name) ?? 0) + 1);
  const named = new Map<string, NamedTool>();
  tools.forEach((tool, i) => {
    const name = plain[i]!;
    const unique = name.length <= MAX_NAME && count.get(name) === 1 && !reserved.has(name);
    named.set(unique ? name : hashed(tool), tool);
  });
  return named;
}
