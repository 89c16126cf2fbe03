import { describe, expect, it } from 'vitest';
import { MCP_APP_MIME_TYPE, viewResource } from './ui-resource.ts';
import { viewsUnavailable } from './sandbox-origin.ts';

const URI = 'ui://get-time/mcp-app.html';

describe('viewResource: the view in a resources/read answer', () => {
  it('takes exactly the asked URI served as an MCP App, with its declared CSP', () => {
    const result = {
      contents: [
        { uri: 'ui://other/app.html', mimeType: MCP_APP_MIME_TYPE, text: '<p>other</p>' },
        { uri: URI, mimeType: MCP_APP_MIME_TYPE, text: '<p>time</p>', _meta: { ui: { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true } } },
      ],
    };
    expect(viewResource(result, URI)).toEqual({ html: '<p>time</p>', csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true });
  });

  it('decodes a base64 blob, and reads a CSP that does not parse as none declared', () => {
    const blob = Buffer.from('<p>é</p>').toString('base64');
    expect(viewResource({ contents: [{ uri: URI, mimeType: MCP_APP_MIME_TYPE, blob, _meta: { ui: { csp: { connectDomains: 'https://x' } } } }] }, URI)).toEqual({ html: '<p>é</p>', csp: {} });
  });

  it('refuses an answer without that view: another URI, plain HTML, or no HTML', () => {
    expect(() => viewResource({ contents: [{ uri: 'ui://other/app.html', mimeType: MCP_APP_MIME_TYPE, text: 'x' }] }, URI)).toThrow(/did not answer/);
    expect(() => viewResource({ contents: [{ uri: URI, mimeType: 'text/html', text: 'x' }] }, URI)).toThrow(/did not answer/);
    expect(() => viewResource({ contents: [{ uri: URI, mimeType: MCP_APP_MIME_TYPE }] }, URI)).toThrow(/without its HTML/);
  });
});

describe('viewsUnavailable', () => {
  it('says why views are off without a second origin, or on the app’s own', () => {
    expect(viewsUnavailable('http://localhost:4173', '')).toMatch(/no sandbox origin/);
    expect(viewsUnavailable('http://127.0.0.1:4173', 'http://127.0.0.1:4173')).toMatch(/this app’s own origin/);
    expect(viewsUnavailable('http://localhost:4173', 'http://127.0.0.1:4173')).toBeNull();
  });
});
