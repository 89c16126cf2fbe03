import { describe, expect, it } from 'vitest';
import { hashDefinitions, pinTools } from './definition-pin.ts';
import type { McpToolDefinition } from '../storage/records/mcp-server-record.ts';
import { keptRefusals, MAX_DEFINITION_CHARS, MAX_KEPT_TOOLS, MAX_LISTED_TOOLS, screenListing, withinPinRoom } from './screen-listing.ts';

const server = { id: 'srv-1', prefix: 'x' };
const tool = (name: string, more: Partial<McpToolDefinition> = {}): McpToolDefinition => ({ name, description: `The ${name} tool`, inputSchema: { type: 'object' }, ...more });
const names = (definitions: readonly McpToolDefinition[]) => definitions.map((d) => d.name);

describe('point 16: what a server’s tools/list may bring', () => {
  it('takes at most the first 128 tools, and says the rest are not offered', () => {
    const listed = Array.from({ length: MAX_LISTED_TOOLS + 1 }, (_, i) => tool(`t${i}`));
    const { taken, refusals } = screenListing(listed, server, new Set());
    expect(taken).toHaveLength(MAX_LISTED_TOOLS);
    expect(names(taken).at(-1)).toBe(`t${MAX_LISTED_TOOLS - 1}`);
    expect(refusals).toEqual([`It lists more than ${MAX_LISTED_TOOLS} tools; only the first ${MAX_LISTED_TOOLS} are offered.`]);
  });

  it('refuses a definition over the size limit, and a name over MCP’s 128 characters', () => {
    const huge = tool('huge', { description: 'x'.repeat(MAX_DEFINITION_CHARS) });
    const long = tool('n'.repeat(129));
    const { taken, refusals } = screenListing([tool('small'), huge, long], server, new Set());
    expect(names(taken)).toEqual(['small']);
    expect(refusals).toEqual([
      expect.stringMatching(/^“huge” is not offered: its definition is 20,\d{3} characters long \(at most 20,000\)\.$/),
      `“${'n'.repeat(59)}…” is not offered: its name is 129 characters long (at most 128).`,
    ]);
  });

  it('refuses both of two tools of one server that map to one name, and a name listed twice', () => {
    const { taken, refusals } = screenListing([tool('a.b'), tool('keep'), tool('a_b'), tool('twice'), tool('twice')], server, new Set());
    expect(names(taken)).toEqual(['keep']);
    expect(refusals).toEqual([
      '“twice” is not offered: the server lists 2 tools of that name.',
      '“a.b” and “a_b” are not offered: each would be called x__a_b, so the server must rename one of them.',
    ]);
  });

  it('shows a name’s control and formatting characters as such in what it says', () => {
    const { refusals } = screenListing([tool('a\u202Eb'), tool('a\nb')], server, new Set());
    expect(refusals).toEqual(['“a\uFFFDb” and “a\uFFFDb” are not offered: each would be called x__a_b, so the server must rename one of them.']);
  });

  it('never drops a kept pin to make room: past the limit, new tools are refused and known ones stay', async () => {
    const kept = pinTools([], await hashDefinitions(Array.from({ length: MAX_KEPT_TOOLS }, (_, i) => tool(`old${i}`))), 1).map((t) => ({ ...t, listed: false as const }));
    const listed = await hashDefinitions([tool('old3', { description: 'changed' }), tool('new1'), tool('new2')]);
    const { fits, refusals } = withinPinRoom(kept, listed);
    expect(fits.map((f) => f.definition.name)).toEqual(['old3']);
    expect(refusals).toEqual([`2 new tools are not offered (“new1”, “new2”): this server has listed ${MAX_KEPT_TOOLS} different tools, whose definitions are kept. Remove the server and add it again to start over.`]);
    expect(pinTools(kept, fits, 2)).toHaveLength(MAX_KEPT_TOOLS);
  });

  it('keeps the first refusals and counts the rest', () => {
    const many = Array.from({ length: 30 }, (_, i) => `r${i}`);
    expect(keptRefusals(many)).toEqual([...many.slice(0, 19), 'And 11 more tools are not offered.']);
  });
});
