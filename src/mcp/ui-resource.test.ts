import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModernServer, type ModernServer } from '../../tests/e2e/mcp-modern.ts';
import type { SessionEvents } from './mcp-session.ts';
import { openHttpSession } from './open-http-session.ts';
import { MCP_APP_MIME_TYPE, uiResourceUri } from './ui-resource.ts';

describe('uiResourceUri (MCP Apps groundwork, issue 36)', () => {
  it('reads ui.resourceUri, else the deprecated flat ui/resourceUri', () => {
    expect(uiResourceUri({ ui: { resourceUri: 'ui://maps/view.html', csp: {} } })).toBe('ui://maps/view.html');
    expect(uiResourceUri({ 'ui/resourceUri': 'ui://old/view.html' })).toBe('ui://old/view.html');
    expect(uiResourceUri({ ui: { resourceUri: 'ui://new/view.html' }, 'ui/resourceUri': 'ui://old/view.html' })).toBe('ui://new/view.html');
  });

  it('gives null for no view, and for a view that is not a ui:// resource of the server', () => {
    for (const meta of [undefined, null, 'ui://x', {}, { ui: {} }, { ui: { resourceUri: 'https://evil.example/view.html' } }, { ui: { resourceUri: 'ui:/x' } }, { 'ui/resourceUri': 42 }, { ui: { resourceUri: `ui://x/${'a'.repeat(3000)}` } }]) {
      expect(uiResourceUri(meta)).toBeNull();
    }
  });
});

const noEvents: SessionEvents = {
  onToolsChanged() {},
  onLost() {},
  onElicit: async () => ({ action: 'cancel' }),
  onSample: () => Promise.reject(new Error('no sampling here')),
};

let modern: ModernServer;
beforeAll(async () => {
  modern = await startModernServer(18_690 + (process.pid % 9));
}, 30_000);
afterAll(async () => modern?.close());

describe('a session reads a view resource', () => {
  it('reads exactly the ui:// resource a tool declares, from a 2026-07-28 server', async () => {
    const session = await openHttpSession({ url: modern.url, headers: {}, bearerToken: null }, noEvents);
    const result = await session.readResource('ui://modern/time.html', { signal: new AbortController().signal });
    await session.close();
    expect(result.contents).toEqual([{ uri: 'ui://modern/time.html', mimeType: MCP_APP_MIME_TYPE, text: expect.stringContaining('<p id="time">') }]);
  });
});
