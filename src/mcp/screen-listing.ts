import type { McpServerRecord, McpToolDefinition, McpToolRecord } from '../storage/records/mcp-server-record.ts';
import { sharedNames, type NamedTool } from './tool-names.ts';

/**
 * What a server's `tools/list` may bring. Every listed definition is stored,
 * hashed, offered to the model with every request and shown on cards: a
 * server must not be able to fill this browser's storage or the model's
 * context by listing a lot, nor make two of its tools answer to one name.
 *
 * 128 tools is what OpenAI's API takes in one request; 20,000 characters is
 * well above the largest tool definitions of real servers (GitHub's are under
 * 5,000); MCP itself asks for names of at most 128 characters.
 */
export const MAX_LISTED_TOOLS = 128;
export const MAX_DEFINITION_CHARS = 20_000;
export const MAX_TOOL_NAME = 128;
/**
 * At most this many pages of a tools/list are read. Each page is a round trip,
 * and a server could page forever: past this, the tools listed so far are kept
 * and offered and Settings says the rest were not read (screenListing),
 * rather than failing the whole connection. Twenty pages hold the 128 tools
 * that are offered at all as soon as a page has seven.
 */
export const MAX_TOOL_PAGES = 20;
/**
 * Pins kept per server, listed tools and those that left together. A pin is
 * never dropped to make room (a server could otherwise cycle names until a
 * tool's pin is gone, and list it changed as new): past this, new tools are
 * refused until the server is removed and added again.
 */
export const MAX_KEPT_TOOLS = 512;
/** Refusals kept to show in Settings; the rest are counted. */
const MAX_REFUSALS = 20;

export interface Screened {
  /** The definitions that may be pinned and offered. */
  taken: McpToolDefinition[];
  /** Why the others are not, a plain sentence each. */
  refusals: string[];
}

/**
 * A listing's definitions that may be stored, and a sentence for each left
 * out: past the count, too large, with a name over MCP's limit, listed twice,
 * or sharing its model-facing name with another of the server's tools (both
 * are left out: tool-names.ts). Pure; the server's prefix and id name its tools.
 */
export function screenListing(
  listed: readonly McpToolDefinition[],
  server: Pick<McpServerRecord, 'id' | 'prefix'>,
  reserved: ReadonlySet<string>,
  /** The session stopped reading at its page bound (mcp-session.ts) with pages left. */
  pagesLeft = false,
): Screened {
  const refusals: string[] = [];
  if (pagesLeft) {
    refusals.push(`It lists its tools over more than ${MAX_TOOL_PAGES} pages; only the tools of its first ${MAX_TOOL_PAGES} pages are offered, and the rest were not read.`);
  }
  // The session stops reading a listing once it has more than the count (mcp-session.ts): how many more is not known.
  if (listed.length > MAX_LISTED_TOOLS) refusals.push(`It lists more than ${MAX_LISTED_TOOLS} tools; only the first ${MAX_LISTED_TOOLS} are offered.`);
  const fitting = listed.slice(0, MAX_LISTED_TOOLS).filter((definition) => {
    if (definition.name.length > MAX_TOOL_NAME) {
      refusals.push(`${quoted(definition.name)} is not offered: its name is ${definition.name.length} characters long (at most ${MAX_TOOL_NAME}).`);
      return false;
    }
    const size = JSON.stringify(definition).length;
    if (size > MAX_DEFINITION_CHARS) {
      refusals.push(`${quoted(definition.name)} is not offered: its definition is ${size.toLocaleString('en')} characters long (at most ${MAX_DEFINITION_CHARS.toLocaleString('en')}).`);
      return false;
    }
    return true;
  });

  const count = new Map<string, number>();
  for (const { name } of fitting) count.set(name, (count.get(name) ?? 0) + 1);
  for (const [name, n] of count) if (n > 1) refusals.push(`${quoted(name)} is not offered: the server lists ${n} tools of that name.`);
  const once = fitting.filter(({ name }) => count.get(name) === 1);

  const clashing = new Set<string>();
  const named: NamedTool[] = once.map(({ name }) => ({ serverId: server.id, prefix: server.prefix, toolName: name }));
  for (const [modelName, group] of sharedNames(named, reserved)) {
    for (const tool of group) clashing.add(tool.toolName);
    refusals.push(`${group.map((tool) => quoted(tool.toolName)).join(' and ')} are not offered: each would be called ${modelName}, so the server must rename one of them.`);
  }
  return { taken: once.filter(({ name }) => !clashing.has(name)), refusals };
}

/**
 * The taken definitions that fit beside the pins already kept: every known
 * name does; of the new ones, as many as `MAX_KEPT_TOOLS` leaves room for.
 * Synchronous, for the store's update (it depends on the row as stored then).
 */
export function withinPinRoom<T extends { definition: McpToolDefinition }>(kept: readonly McpToolRecord[], taken: readonly T[]): { fits: T[]; refusals: string[] } {
  const known = new Set(kept.map((tool) => tool.definition.name));
  let room = MAX_KEPT_TOOLS - known.size;
  const fits: T[] = [];
  const refused: string[] = [];
  for (const entry of taken) {
    if (known.has(entry.definition.name)) fits.push(entry);
    else if (room > 0) {
      room--;
      fits.push(entry);
    } else refused.push(entry.definition.name);
  }
  const refusals =
    refused.length === 0
      ? []
      : [`${refused.length} new tools are not offered (${refused.slice(0, 3).map(quoted).join(', ')}${refused.length > 3 ? ', …' : ''}): this server has listed ${MAX_KEPT_TOOLS} different tools, whose definitions are kept. Remove the server and add it again to start over.`];
  return { fits, refusals };
}

/** The refusals as stored: the first few, and how many more. */
export function keptRefusals(refusals: readonly string[]): string[] {
  if (refusals.length <= MAX_REFUSALS) return [...refusals];
  return [...refusals.slice(0, MAX_REFUSALS - 1), `And ${refusals.length - MAX_REFUSALS + 1} more tools are not offered.`];
}

/** A tool's name in a sentence: in quotes, cut, with its control characters shown as such. */
function quoted(name: string): string {
  const shown = name.replace(/[\p{Cc}\p{Cf}]/gu, '\uFFFD');
  return `“${shown.length > 60 ? `${shown.slice(0, 59)}…` : shown}”`;
}
