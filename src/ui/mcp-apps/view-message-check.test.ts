import { describe, expect, it } from 'vitest';
import { checkViewMessage, MAX_VIEW_MESSAGE_CHARS } from './view-message-check.ts';

const proxy = { name: 'the sandbox proxy’s window' };
const expected = { source: proxy, origin: 'http://127.0.0.1:4173' };
const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get-time', arguments: {} } };

describe('checkViewMessage: what the bridge accepts from a view', () => {
  it('accepts a known request from the proxy’s window at the sandbox origin', () => {
    expect(checkViewMessage({ source: proxy, origin: expected.origin, data: call }, expected)).toEqual({ accept: true, message: call });
  });

  it('accepts a response to the host’s own request (no method)', () => {
    const response = { jsonrpc: '2.0', id: 1, result: {} };
    expect(checkViewMessage({ source: proxy, origin: expected.origin, data: response }, expected).accept).toBe(true);
  });

  it('refuses the right origin from another window (another view’s frame, the app itself, none)', () => {
    for (const source of [{ name: 'another view' }, globalThis, null]) {
      expect(checkViewMessage({ source, origin: expected.origin, data: call }, expected)).toEqual({ accept: false, reason: 'not from this view’s frame' });
    }
  });

  it('refuses the right window at another origin (the view navigated its proxy away, or an opaque one)', () => {
    for (const origin of ['http://localhost:4173', 'null', 'https://127.0.0.1:4173']) {
      const check = checkViewMessage({ source: proxy, origin, data: call }, expected);
      expect(check.accept).toBe(false);
    }
  });

  it('refuses a message past the size bound, unread, and one just within it passes', () => {
    const within = { ...call, params: { name: 'x', arguments: { text: 'a'.repeat(MAX_VIEW_MESSAGE_CHARS - 200) } } };
    const over = { ...call, params: { name: 'x', arguments: { text: 'a'.repeat(MAX_VIEW_MESSAGE_CHARS) } } };
    expect(checkViewMessage({ source: proxy, origin: expected.origin, data: within }, expected).accept).toBe(true);
    expect(checkViewMessage({ source: proxy, origin: expected.origin, data: over }, expected)).toEqual({ accept: false, reason: `larger than ${MAX_VIEW_MESSAGE_CHARS} characters` });
  });

  it('answers a request for an unknown method with JSON-RPC "method not found", and drops such a notification', () => {
    const request = { jsonrpc: '2.0', id: 'r1', method: 'resources/read', params: { uri: 'file:///etc/passwd' } };
    expect(checkViewMessage({ source: proxy, origin: expected.origin, data: request }, expected)).toEqual({
      accept: false,
      reason: 'Pausepoint does not answer resources/read from a view.',
      reply: { jsonrpc: '2.0', id: 'r1', error: { code: -32601, message: 'Pausepoint does not answer resources/read from a view.' } },
    });
    const notification = { jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params: { html: '<script>1</script>' } };
    const check = checkViewMessage({ source: proxy, origin: expected.origin, data: notification }, expected);
    expect(check).toEqual({ accept: false, reason: 'Pausepoint does not answer ui/notifications/sandbox-resource-ready from a view.' });
  });

  it('refuses what is not JSON-RPC 2.0', () => {
    for (const data of ['tools/call', [call], { ...call, jsonrpc: '1.0' }, { jsonrpc: '2.0' }, { jsonrpc: '2.0', id: 1 }, { jsonrpc: '2.0', method: 42 }]) {
      expect(checkViewMessage({ source: proxy, origin: expected.origin, data }, expected).accept).toBe(false);
    }
  });
});
