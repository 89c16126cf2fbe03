import { describe, expect, it, vi } from 'vitest';
import { bearerOnlyTo } from './bearer-only-to.ts';

function recording() {
  const seen: { url: string; authorization: string | null }[] = [];
  const base = vi.fn<typeof fetch>(async (input, init) => {
    const request = new Request(input, init);
    seen.push({ url: request.url, authorization: request.headers.get('authorization') });
    return new Response('ok');
  });
  return { seen, fetch: bearerOnlyTo('https://mcp.example', base) };
}

describe('bearerOnlyTo', () => {
  it('sends the bearer token to the MCP server’s origin', async () => {
    const { seen, fetch } = recording();
    await fetch('https://mcp.example/mcp', { method: 'POST', headers: { authorization: 'Bearer tok' } });
    await fetch(new Request('https://mcp.example/messages?s=1', { headers: { Authorization: 'Bearer tok' } }));
    expect(seen.map((s) => s.authorization)).toEqual(['Bearer tok', 'Bearer tok']);
  });

  it('leaves it behind for any other origin, however the headers are given', async () => {
    const { seen, fetch } = recording();
    await fetch('https://auth.example/token', { headers: { Authorization: 'Bearer tok', 'x-other': '1' } });
    await fetch(new URL('https://mcp.example.evil/mcp'), { headers: new Headers({ authorization: 'bearer tok' }) });
    await fetch(new Request('http://mcp.example/mcp', { headers: { authorization: 'Bearer tok' } }));
    expect(seen.map((s) => s.authorization)).toEqual([null, null, null]);
  });

  it('passes other schemes on (Basic client authentication at a token endpoint)', async () => {
    const { seen, fetch } = recording();
    await fetch('https://auth.example/token', { headers: { authorization: 'Basic Y2xpZW50OnNlY3JldA==' } });
    expect(seen[0]!.authorization).toBe('Basic Y2xpZW50OnNlY3JldA==');
  });
});
