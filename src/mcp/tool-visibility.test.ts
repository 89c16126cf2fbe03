import { describe, expect, it } from 'vitest';
import { parseCall } from '../engine/parse-call.ts';
import { ToolRegistry } from '../engine/tool-registry.ts';
import { definitionHash } from './definition-pin.ts';
import { McpToolDefinition, type McpServerRecord, type McpToolRecord } from '../storage/records/mcp-server-record.ts';
import { mcpTools } from './mcp-tool.ts';
import { toolVisibility } from './tool-visibility.ts';

describe('MCP Apps tool visibility (_meta.ui.visibility)', () => {
  it('reads who may call a tool: the model, the app, or both by default', () => {
    expect(toolVisibility({ ui: { visibility: ['app'] } })).toEqual(['app']);
    expect(toolVisibility({ ui: { visibility: ['model'] } })).toEqual(['model']);
    expect(toolVisibility({ ui: { visibility: ['model', 'app'] } })).toBeUndefined();
    expect(toolVisibility({ ui: { visibility: [] } })).toBeUndefined();
    expect(toolVisibility({ ui: { resourceUri: 'ui://x/y' } })).toBeUndefined();
    expect(toolVisibility(undefined)).toBeUndefined();
    expect(toolVisibility({ ui: { visibility: 'app' } })).toBeUndefined();
    // An audience this revision does not know is left out; what it knows stays.
    expect(toolVisibility({ ui: { visibility: ['app', 'robot'] } })).toEqual(['app']);
  });

  const definition = (name: string, visibility?: ['app'] | ['model']) =>
    McpToolDefinition.parse({ name, description: name, inputSchema: { type: 'object' }, ...(visibility ? { visibility } : {}) });
  const record = (d: McpToolDefinition): McpToolRecord => ({ definition: d, hash: `h-${d.name}`, pinned: { hash: `h-${d.name}`, definition: d, at: 0 }, enabled: true });
  const server: McpServerRecord = {
    v: 1,
    id: 's1',
    url: 'https://mcp.example/mcp',
    name: 'Shop',
    prefix: 'shop',
    createdAt: 0,
    enabled: true,
    trusted: false,
    auth: { bearerToken: null, headers: {} },
    status: { kind: 'connected', at: 0, transport: 'streamable_http' },
    serverInfo: null,
    tools: [record(definition('both')), record(definition('refresh', ['app'])), record(definition('secret', ['model']))],
  };

  it('lists an app-only tool to the app and never to the model; a model-only one is refused to the app', () => {
    const tools = new ToolRegistry([], () => mcpTools([server], new Set(), () => Promise.resolve('')));
    const listed = tools.specs.map((spec) => spec.function.name);
    expect(listed).toEqual(['shop__both', 'shop__secret']);
    expect(tools.names()).toEqual(listed);
    const call = (name: string) => ({ id: 'c1', name, arguments: '{}' });
    expect(parseCall(call('shop__refresh'), tools)).toMatchObject({ ok: false, error: expect.stringContaining('there is no tool named "shop__refresh"') });
    expect(parseCall(call('shop__refresh'), tools, 'app')).toMatchObject({ ok: true });
    expect(parseCall(call('shop__secret'), tools, 'app')).toMatchObject({ ok: false });
    expect(parseCall(call('shop__both'), tools, 'app')).toMatchObject({ ok: true });
    // An app-only tool still has its definition hash: rules and cards are bound to it.
    expect(tools.definitionHash('shop__refresh')).toBeDefined();
  });

  it('keeps the pins of tools both may call, and changes the pin of a tool whose audience changes', async () => {
    expect(definition('both')).not.toHaveProperty('visibility');
    expect(await definitionHash(definition('both', ['app']))).not.toBe(await definitionHash(definition('both')));
  });
});
