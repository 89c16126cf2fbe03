import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOL_INPUTS } from './builtin-tool-inputs.ts';
import { createHttpRequestTool } from './http-request.ts';
import { createNotesTools } from './notes-tools.ts';
import { MemoryNotesStore } from '../storage/notes-store.ts';

describe('BUILTIN_TOOL_INPUTS', () => {
  it('holds the input schema of every tool the worker builds in, and nothing else', () => {
    const store = new MemoryNotesStore();
    const tools = [...createNotesTools(store), createHttpRequestTool()];
    expect([...BUILTIN_TOOL_INPUTS.keys()].sort()).toEqual(tools.map((tool) => tool.name).sort());
    for (const tool of tools) expect(BUILTIN_TOOL_INPUTS.get(tool.name)).toBe(tool.input);
  });
});
