import { describe, expect, it } from 'vitest';
import { riskOfPause } from '../engine/risk-label.ts';
import type { McpServerRecord, McpToolAnnotations, McpToolRecord } from '../storage/records/mcp-server-record.ts';
import { mcpToolDefinition } from './mcp-tool.ts';

const card = { origin: 'gate', kind: 'approval', payload: {} } as const;

describe('an MCP tool\'s risk label', () => {
  const definition = (annotations: McpToolAnnotations) => ({ name: 'lookup', description: 'Looks up', inputSchema: { type: 'object' }, annotations });
  const server = (trusted: boolean): McpServerRecord => ({
    v: 1,
    id: 's1',
    url: 'https://mcp.example/mcp',
    name: null,
    prefix: 'mcp',
    createdAt: 0,
    enabled: true,
    trusted,
    auth: { bearerToken: null, headers: {} },
    status: { kind: 'connected', at: 0, transport: 'streamable_http' },
    serverInfo: null,
    tools: [],
  });
  const toolRecord = (annotations: McpToolAnnotations, pinnedHash = 'h1'): McpToolRecord => ({
    definition: definition(annotations),
    hash: 'h1',
    pinned: { hash: pinnedHash, definition: definition({}), at: 0 },
    enabled: true,
  });
  const mcpLabel = (trusted: boolean, record: McpToolRecord) =>
    riskOfPause(mcpToolDefinition('mcp__lookup', server(trusted), record, () => Promise.resolve('')), card);

  it('an MCP tool is labelled from its annotations and its server being trusted', () => {
    expect(mcpLabel(false, toolRecord({ readOnlyHint: true }))).toBe('changes');
    expect(mcpLabel(true, toolRecord({ readOnlyHint: true }))).toBe('reads');
    expect(mcpLabel(true, toolRecord({}))).toBe('destructive');
  });

  it('a changed definition is read as from an untrusted server until a call of it is approved', () => {
    expect(mcpLabel(true, toolRecord({ readOnlyHint: true }, 'h0'))).toBe('changes');
  });
});
