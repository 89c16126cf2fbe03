import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModelMessage, ModelResult, ToolSpec } from '../engine/model-port.ts';
import { wrapToolResult } from '../engine/tool-result-envelope.ts';
import { DEMO_MODEL_ID, createDemoModel } from './demo-model.ts';
import { DEMO_SINK_URL } from './demo-sink.ts';

const TOOL_NAMES = ['wait_for_approval', 'save_note', 'list_notes', 'delete_note', 'http_request'];
const TOOLS: ToolSpec[] = TOOL_NAMES.map((name) => ({
  type: 'function',
  function: { name, description: name, parameters: { type: 'object', properties: {} } },
}));

// The demo must never touch the network: any use of the real fetch fails the test.
const realFetch = vi.fn(() => Promise.reject(new Error('the demo model used the network')));
beforeEach(() => {
  realFetch.mockClear();
  vi.stubGlobal('fetch', realFetch);
});
afterEach(() => {
  expect(realFetch).not.toHaveBeenCalled();
  vi.unstubAllGlobals();
});

async function ask(messages: ModelMessage[], tools: ToolSpec[] = TOOLS): Promise<ModelResult & { deltas: string[] }> {
  const deltas: string[] = [];
  const result = await createDemoModel({ chunkDelayMs: 0 }).complete({
    messages,
    tools,
    signal: new AbortController().signal,
    onText: (delta) => deltas.push(delta),
  });
  return { ...result, deltas };
}

const user = (content: string): ModelMessage => ({ role: 'user', content });

/** The arguments of the single call the model made, parsed. */
function onlyCall(result: ModelResult, name: string): Record<string, unknown> {
  expect(result.toolCalls).toHaveLength(1);
  expect(result.toolCalls[0]?.name).toBe(name);
  expect(result.finishReason).toBe('tool_calls');
  return JSON.parse(result.toolCalls[0]?.arguments ?? '') as Record<string, unknown>;
}

describe('the demo model', () => {
  it('greets with the commands it understands, streamed in several pieces', async () => {
    const result = await ask([user('hello')]);
    expect(result.toolCalls).toEqual([]);
    expect(result.finishReason).toBe('stop');
    expect(result.content).toContain('demo');
    for (const word of ['approve', 'choose', 'form', 'note', 'delete', 'post']) expect(result.content).toContain(word);
    expect(result.deltas.length).toBeGreaterThan(10);
    expect(result.deltas.join('')).toBe(result.content);
  });

  it.each(['Please approve the newsletter', 'send it'])('asks for approval on “%s”', async (text) => {
    const args = onlyCall(await ask([user(text)]), 'wait_for_approval');
    expect(args).toMatchObject({ kind: 'approval', title: expect.any(String), payload: expect.any(Object) });
    // The card must say what matters: counts, recipients, reversibility.
    expect(args.description).toMatch(/1,284/);
    expect(args.description).toMatch(/Recipients/);
    expect(args.description).toMatch(/Reversible/);
  });

  it.each(['give me a choice', 'let me choose'])('offers options on “%s”', async (text) => {
    const args = onlyCall(await ask([user(text)]), 'wait_for_approval');
    expect(args).toMatchObject({ kind: 'choice', title: expect.any(String), description: expect.any(String) });
    expect(Array.isArray(args.options)).toBe(true);
    expect((args.options as unknown[]).length).toBeGreaterThan(1);
    expect((args.options as unknown[]).length).toBeLessThanOrEqual(8);
  });

  it('asks for a form whose payload is a JSON Schema object', async () => {
    const args = onlyCall(await ask([user('show me a form')]), 'wait_for_approval');
    expect(args).toMatchObject({ kind: 'data_entry', title: expect.any(String), description: expect.any(String) });
    const schema = args.payload as { type: string; properties: Record<string, { type: string; enum?: string[] }>; required: string[] };
    expect(schema.type).toBe('object');
    const types = Object.values(schema.properties).map((p) => (p.enum ? 'enum' : p.type));
    expect(new Set(types)).toEqual(new Set(['string', 'number', 'boolean', 'enum']));
    expect(schema.required.length).toBeGreaterThan(0);
    for (const name of schema.required) expect(schema.properties).toHaveProperty(name);
  });

  it('saves a note, quoting what was asked', async () => {
    const args = onlyCall(await ask([user('write a note please')]), 'save_note');
    expect(args).toEqual({ title: expect.any(String), body: expect.stringContaining('write a note please') });
  });

  it('deletes by listing first, then calling delete_note with an id from the list', async () => {
    const first = await ask([user('delete my note')]);
    expect(onlyCall(first, 'list_notes')).toEqual({});
    const listCall = first.toolCalls[0];
    if (!listCall) throw new Error('no list call');

    const listed = JSON.stringify({ count: 1, notes: [{ id: 'note-42', title: 'Groceries' }] });
    const second = await ask([
      user('delete my note'),
      { role: 'assistant', content: first.content, tool_calls: [{ id: listCall.id, type: 'function', function: { name: 'list_notes', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: listCall.id, content: wrapToolResult(listed) },
    ]);
    expect(onlyCall(second, 'delete_note')).toEqual({ id: 'note-42' });
  });

  it('says so when there is nothing to delete', async () => {
    const result = await ask([
      user('delete a note'),
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'list_notes', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: wrapToolResult('There are no saved notes.') },
    ]);
    expect(result.toolCalls).toEqual([]);
    expect(result.content).toMatch(/no notes/i);
  });

  it.each(['make an http request', 'post the order'])('sends a gated POST to the demo sink, inside the browser, on “%s”', async (text) => {
    const args = onlyCall(await ask([user(text)]), 'http_request');
    expect(args).toMatchObject({ method: 'POST', url: `${DEMO_SINK_URL}orders` });
  });

  it('confirms a decision by quoting it', async () => {
    const result = await ask([user('send it'), user('Approval approval: decline - not this week')]);
    expect(result.toolCalls).toEqual([]);
    expect(result.content).toContain('> Approval approval: decline - not this week');
    expect(result.content).toMatch(/not go ahead/);
  });

  it('after approving a gated call, quotes what the tool answered: the engine puts the result before the decision', async () => {
    const result = await ask([
      user('delete my note'),
      { role: 'assistant', content: null, tool_calls: [{ id: 'd1', type: 'function', function: { name: 'delete_note', arguments: '{"id":"n1"}' } }] },
      { role: 'tool', tool_call_id: 'd1', content: wrapToolResult('Deleted note “Groceries” (id n1).') },
      user('Approval approval: approve\nPayload: {"id":"n1"}'),
    ]);
    expect(result.content).toContain('> Approval approval: approve');
    expect(result.content).toContain('`delete_note`');
    expect(result.content).toContain('> Deleted note “Groceries” (id n1).');
    // It reads the result through the envelope the engine sends it in, as a model does.
    expect(result.content).not.toContain('tool_result');
    expect(result.content).not.toContain('nothing was actually sent');
  });

  it('confirms a tool result by quoting it', async () => {
    const result = await ask([
      user('note this'),
      { role: 'assistant', content: null, tool_calls: [{ id: 'c9', type: 'function', function: { name: 'save_note', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c9', content: wrapToolResult('Saved note “x” with id 7.') },
    ]);
    expect(result.toolCalls).toEqual([]);
    expect(result.content).toContain('`save_note`');
    expect(result.content).toContain('> Saved note “x” with id 7.');
    expect(result.content).not.toContain('tool_result');
  });

  it('does not call a tool the conversation does not offer', async () => {
    const result = await ask([user('post it')], TOOLS.filter((t) => t.function.name !== 'http_request'));
    expect(result.toolCalls).toEqual([]);
    expect(result.content).toContain('http_request');
  });

  it('gives every tool call a fresh id', async () => {
    const a = await ask([user('send')]);
    const b = await ask([user('send')]);
    expect(a.toolCalls[0]?.id).not.toBe(b.toolCalls[0]?.id);
  });

  it('answers Test connection with its one model', async () => {
    expect(await createDemoModel().listModels()).toEqual([DEMO_MODEL_ID]);
  });

  it('stops streaming when aborted', async () => {
    const controller = new AbortController();
    const deltas: string[] = [];
    const done = createDemoModel({ chunkDelayMs: 5 }).complete({
      messages: [user('hi')],
      tools: TOOLS,
      signal: controller.signal,
      onText: (delta) => {
        deltas.push(delta);
        if (deltas.length === 2) controller.abort();
      },
    });
    await expect(done).rejects.toMatchObject({ name: 'ModelError', kind: 'aborted' });
    expect(deltas).toHaveLength(2);
  });
});
