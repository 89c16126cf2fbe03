import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CHANGED_SINCE_APPROVED } from './changed-since-card.ts';
import { TOOL_CHANGED } from './decide-by-rules.ts';
import type { ToolDefinition } from './tool-definition.ts';
import { harness, pending, say, tab } from './testing/harness.ts';
import { MemoryRules } from './testing/memory-rules.ts';

const input = z.object({ word: z.string() });

/** A tool that comes from elsewhere (as an MCP server's does): what its source says can change under a pending card. */
function lookup(runs: string[], source: Record<string, unknown>, changed = false): ToolDefinition<typeof input> {
  return {
    name: 'lookup',
    description: 'Looks up a word.',
    input,
    gate: ({ word }) => ({ title: `Look up ${word}?`, description: `The server says: ${JSON.stringify(source)}` }),
    sourceDefinition: source,
    definitionChanged: changed,
    async execute({ word }) {
      runs.push(word);
      return `found ${word}`;
    },
  };
}

const readOnly = { annotations: { readOnlyHint: true }, outputSchema: { type: 'object' } };
const nowDestructive = { annotations: { readOnlyHint: false, destructiveHint: true }, outputSchema: { type: 'object' } };

describe('point 4: a call runs the definition that was approved, not whatever is current', () => {
  it('an approved card whose tool changed since asks again, with the tool as it is now, and nothing runs until that is approved', async () => {
    const runs: string[] = [];
    let tools: readonly ToolDefinition[] = [lookup(runs, readOnly)];
    const h = harness([{ calls: [{ name: 'lookup', args: { word: 'pause' } }] }, { text: 'Found.' }], { tools: [], dynamicTools: () => tools });
    const id = await say(h, null, 'look it up');
    const [card] = await pending(h, id);
    expect(card).toMatchObject({ origin: 'gate', title: 'Look up pause?', definitionHash: expect.stringMatching(/^[0-9a-f]{64}$/) });

    // Only the annotations change (the model's text does not): still another tool.
    tools = [lookup(runs, nowDestructive)];
    await h.engine.decide(card!.id, { type: 'approve' }, tab('tab-A'));
    await h.engine.whenIdle();
    expect(runs).toEqual([]);
    const [again] = await pending(h, id);
    expect(again).toMatchObject({ origin: 'gate', toolCallId: card!.toolCallId, payload: { word: 'pause' } });
    expect(again!.definitionHash).not.toBe(card!.definitionHash);
    expect(again!.description).toBe(`${CHANGED_SINCE_APPROVED}\n\nThe server says: ${JSON.stringify(nowDestructive)}`);

    await h.engine.decide(again!.id, { type: 'approve' }, tab('tab-A'));
    await h.engine.whenIdle();
    expect(runs).toEqual(['pause']);
  });

  it('an approved card whose tool is unchanged runs at once', async () => {
    const runs: string[] = [];
    const tools: readonly ToolDefinition[] = [lookup(runs, readOnly)];
    const h = harness([{ calls: [{ name: 'lookup', args: { word: 'pause' } }] }, { text: 'Found.' }], { tools: [], dynamicTools: () => tools });
    const id = await say(h, null, 'look it up');
    const [card] = await pending(h, id);
    await h.engine.decide(card!.id, { type: 'approve' }, tab('tab-A'));
    await h.engine.whenIdle();
    expect(runs).toEqual(['pause']);
    expect(await pending(h, id)).toEqual([]);
  });

  it('an allow rule bound to the tool stops applying when only its annotations or output schema change', async () => {
    const runs: string[] = [];
    let tools: readonly ToolDefinition[] = [lookup(runs, readOnly)];
    const rules = new MemoryRules();
    const h = harness([{ calls: [{ name: 'lookup', args: { word: 'a' } }] }, { text: 'ok' }, { calls: [{ name: 'lookup', args: { word: 'b' } }] }], { tools: [], rules, dynamicTools: () => tools });
    await h.engine.addRule({ effect: 'allow', tool: 'lookup', scope: { kind: 'everywhere' }, source: 'settings' });
    const id = await say(h, null, 'one');
    expect(runs).toEqual(['a']);

    tools = [lookup(runs, { ...readOnly, outputSchema: { type: 'object', properties: { leak: { type: 'string' } } } })];
    await say(h, id, 'two');
    expect(runs).toEqual(['a']);
    const [card] = await pending(h, id);
    expect(card!.description.startsWith(TOOL_CHANGED)).toBe(true);
  });

  it('a glob allow rule lets through a tool whose definition is the accepted one, never one changed since', async () => {
    const runs: string[] = [];
    let tools: readonly ToolDefinition[] = [lookup(runs, readOnly)];
    const rules = new MemoryRules();
    const h = harness([{ calls: [{ name: 'lookup', args: { word: 'a' } }] }, { text: 'ok' }, { calls: [{ name: 'lookup', args: { word: 'b' } }] }], { tools: [], rules, dynamicTools: () => tools });
    await h.engine.addRule({ effect: 'allow', tool: 'look*', scope: { kind: 'everywhere' }, source: 'settings' });
    const id = await say(h, null, 'one');
    expect(runs).toEqual(['a']);

    tools = [lookup(runs, nowDestructive, true)];
    await say(h, id, 'two');
    expect(runs).toEqual(['a']);
    const [card] = await pending(h, id);
    expect(card).toMatchObject({ origin: 'gate', title: 'Look up b?' });
    expect(card!.description.startsWith(TOOL_CHANGED)).toBe(true);
  });
});
