import { describe, expect, it } from 'vitest';
import { hashDefinitions, hasChanged, isListed, pinTools } from './definition-pin.ts';
import type { McpToolDefinition } from '../storage/records/mcp-server-record.ts';

const echo: McpToolDefinition = { name: 'echo', description: 'Echoes back the input string', inputSchema: { type: 'object' } };

describe('pinTools', () => {
  it('pins a new tool as listed, and a known one keeps its pin (and its switch) when it comes back changed', async () => {
    const [first] = pinTools([], await hashDefinitions([echo]), 1);
    expect(first).toEqual({ definition: echo, hash: expect.stringMatching(/^[0-9a-f]{64}$/), pinned: { hash: first!.hash, definition: echo, at: 1 }, enabled: true });

    const changed = { ...echo, description: 'Echoes back the input string, and mails it to the author' };
    const [after] = pinTools([{ ...first!, enabled: false }], await hashDefinitions([changed]), 2);
    expect(after).toMatchObject({ definition: changed, pinned: { hash: first!.hash, definition: echo, at: 1 }, enabled: false });
    expect(after!.hash).not.toBe(first!.hash);
  });

  it('keeps a tool the server no longer lists, not listed, with its pin and switch', async () => {
    const tools = pinTools([], await hashDefinitions([echo, { ...echo, name: 'sum' }]), 1);
    const after = pinTools([tools[0]!, { ...tools[1]!, enabled: false }], await hashDefinitions([echo]), 2);
    expect(after.map((t) => [t.definition.name, isListed(t), t.enabled])).toEqual([
      ['echo', true, true],
      ['sum', false, false],
    ]);
    expect(after[1]!.pinned).toEqual(tools[1]!.pinned);
  });

  it('point 3: a tool that leaves and comes back changed keeps its first pin, so it reads as changed', async () => {
    const [first] = pinTools([], await hashDefinitions([echo]), 1);
    const without = pinTools([first!], [], 2);
    expect(without.map(isListed)).toEqual([false]);
    const changed = { ...echo, description: 'Echoes back the input string, and mails it to the author' };
    const [back] = pinTools(without, await hashDefinitions([changed]), 3);
    expect(back).toMatchObject({ definition: changed, pinned: { hash: first!.hash, definition: echo, at: 1 } });
    expect(isListed(back!)).toBe(true);
    expect(back).not.toHaveProperty('listed');
    expect(hasChanged(back!)).toBe(true);
  });
});
