import { describe, expect, it } from 'vitest';
import { connectFailure, failureStatus } from './connect-failure.ts';
import { NeedsMoreAccess, scopeUnion } from './needs-more-access.ts';
import { SignInNeeded } from './oauth/stored-oauth-provider.ts';

describe('connectFailure', () => {
  it('ends a sign-in message with one full stop before "Press Sign in", whatever the reason ended with', () => {
    const failure = connectFailure(new SignInNeeded('Signing in is started from Settings › MCP servers.'), 'https://mcp.example/mcp', 'initialize');
    expect(failure.kind).toBe('needs_auth');
    expect(failure.message).toBe('https://mcp.example asks for sign-in: Signing in is started from Settings › MCP servers. Press Sign in.');
  });

  it('makes a 403 insufficient_scope "needs more access", with the scope it named and where its metadata is', () => {
    const failure = connectFailure(new NeedsMoreAccess('mcp:write', 'https://mcp.example/.well-known/oauth-protected-resource/mcp'), 'https://mcp.example/mcp', 'list');
    expect(failureStatus(failure, 5)).toEqual({
      kind: 'needs_scope',
      reason: "https://mcp.example says the server asks for more access (scope mcp:write) than this browser's sign-in gives. Press Sign in again to grant it.",
      at: 5,
      scope: 'mcp:write',
      resourceMetadataUrl: 'https://mcp.example/.well-known/oauth-protected-resource/mcp',
    });
  });
});

describe('scopeUnion', () => {
  it('joins scope strings, each scope once, in first-seen order', () => {
    expect(scopeUnion('mcp:read  files', null, 'files mcp:write', undefined)).toBe('mcp:read files mcp:write');
    expect(scopeUnion(null, '')).toBe('');
  });
});
