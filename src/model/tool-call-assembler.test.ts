import { describe, expect, it } from 'vitest';
import { ToolCallAssembler } from './tool-call-assembler.ts';

describe('ToolCallAssembler', () => {
  it('joins interleaved parallel calls by index, id and name from their first delta', () => {
    const calls = new ToolCallAssembler();
    calls.add({ index: 0, id: 'a', function: { name: 'save_note', arguments: '{"ti' } });
    calls.add({ index: 1, id: 'b', function: { name: 'list_notes', arguments: '' } });
    calls.add({ index: 0, function: { arguments: 'tle":"x"}' } });
    calls.add({ index: 1, function: { arguments: '{}' } });
    expect(calls.toolCalls()).toEqual([
      { id: 'a', name: 'save_note', arguments: '{"title":"x"}' },
      { id: 'b', name: 'list_notes', arguments: '{}' },
    ]);
  });

  it('treats a repeated id as the same call and a new id under the same index as a new call', () => {
    const calls = new ToolCallAssembler();
    calls.add({ index: 0, id: 'a', function: { name: 'one', arguments: '{"x":' } });
    calls.add({ index: 0, id: 'a', function: { arguments: '1}' } });
    calls.add({ index: 0, id: 'b', function: { name: 'two', arguments: '{}' } });
    expect(calls.toolCalls()).toEqual([
      { id: 'a', name: 'one', arguments: '{"x":1}' },
      { id: 'b', name: 'two', arguments: '{}' },
    ]);
  });

  it('fills a missing id once, and missing arguments with {}', () => {
    let n = 0;
    const calls = new ToolCallAssembler(() => `generated_${++n}`);
    calls.add({ index: 0, function: { name: 'list_notes' } });
    expect(calls.toolCalls()).toEqual([{ id: 'generated_1', name: 'list_notes', arguments: '{}' }]);
    expect(calls.toolCalls()[0]?.id).toBe('generated_1');
  });
});
