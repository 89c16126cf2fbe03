// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { McpControl } from '../../worker/agent-client.ts';
import { CALLBACK_CHANNEL, callbackUrl, readCallbackMessage } from './oauth-callback.ts';
import { isOAuthCallback } from './oauth-callback-path.ts';
import { relayOAuthCallback } from './relay-oauth-callback.ts';
import { signInWithPopup } from './sign-in-with-popup.ts';

const ORIGIN = 'http://127.0.0.1:4185';

function control(over: Partial<McpControl> = {}): McpControl {
  return {
    add: vi.fn(),
    setEnabled: vi.fn(),
    setTrusted: vi.fn(),
    setToolEnabled: vi.fn(),
    cancelTask: vi.fn(),
    remove: vi.fn(),
    beginSignIn: vi.fn(async () => ({ kind: 'redirect' as const, authorizationUrl: 'https://auth.example/authorize?state=good-state', state: 'good-state' })),
    finishSignIn: vi.fn(async () => {}),
    signOut: vi.fn(async () => ({ revoked: 'yes' as const })),
    setShowViews: vi.fn(),
    readView: vi.fn(),
    ...over,
  };
}

function fakeWindow(popup: { close: () => void; location: { href: string } } | null) {
  return {
    open: vi.fn(() => popup),
    document: { baseURI: `${ORIGIN}/` },
    location: { origin: ORIGIN },
  } as unknown as Window;
}

/** What the callback page would post (Node's BroadcastChannel: same process, no origin on the event). */
function answer(data: object) {
  const channel = new BroadcastChannel(CALLBACK_CHANNEL);
  channel.postMessage({ type: 'mcp-oauth-callback', code: null, state: null, iss: null, error: null, errorDescription: null, ...data });
  channel.close();
}

const channels: BroadcastChannel[] = [];
afterEach(() => channels.splice(0).forEach((c) => c.close()));

describe('the OAuth callback page', () => {
  it('is the app’s own path beside index.html', () => {
    expect(callbackUrl(`${ORIGIN}/`)).toBe(`${ORIGIN}/mcp-oauth-callback`);
    expect(callbackUrl(`${ORIGIN}/app/index.html`)).toBe(`${ORIGIN}/app/mcp-oauth-callback`);
    expect(isOAuthCallback({ pathname: '/app/mcp-oauth-callback' })).toBe(true);
    expect(isOAuthCallback({ pathname: '/' })).toBe(false);
  });

  it('hands the code, state and iss on, clears them from the address bar, and closes', async () => {
    const received = new Promise<unknown>((resolve) => {
      const channel = new BroadcastChannel(CALLBACK_CHANNEL);
      channels.push(channel);
      channel.onmessage = (event) => resolve(event.data);
    });
    const win = {
      location: { search: '?code=abc&state=s1&iss=https%3A%2F%2Fauth.example', pathname: '/mcp-oauth-callback' },
      history: { replaceState: vi.fn() },
      close: vi.fn(),
    };
    const target = document.createElement('div');
    relayOAuthCallback(win as unknown as Window, target);
    expect(await received).toEqual({ type: 'mcp-oauth-callback', code: 'abc', state: 's1', iss: 'https://auth.example', error: null, errorDescription: null });
    expect(win.history.replaceState).toHaveBeenCalledWith(null, '', '/mcp-oauth-callback');
    expect(win.close).toHaveBeenCalled();
    expect(target.textContent).toContain('Signed in');
  });

  it('ignores messages from another origin and anything that is not a callback', () => {
    const data = { type: 'mcp-oauth-callback', code: 'c', state: 's' };
    expect(readCallbackMessage(new MessageEvent('message', { data, origin: 'https://evil.example' }), ORIGIN)).toBeNull();
    expect(readCallbackMessage(new MessageEvent('message', { data: { type: 'other' }, origin: ORIGIN }), ORIGIN)).toBeNull();
    expect(readCallbackMessage(new MessageEvent('message', { data, origin: ORIGIN }), ORIGIN)).toMatchObject({ code: 'c', state: 's' });
  });
});

describe('signInWithPopup', () => {
  it('sends the popup to the authorization URL, waits for its own state, and hands the code to the worker', async () => {
    const popup = { close: vi.fn(), location: { href: 'about:blank' } };
    const mcp = control();
    const done = signInWithPopup(mcp, 'srv-1', new AbortController().signal, fakeWindow(popup));
    await vi.waitFor(() => expect(popup.location.href).toBe('https://auth.example/authorize?state=good-state'));
    expect(mcp.beginSignIn).toHaveBeenCalledWith('srv-1', `${ORIGIN}/mcp-oauth-callback`);
    answer({ code: 'other-code', state: 'another-sign-in' }); // another server's or tab's sign-in: not this one's
    answer({ code: 'the-code', state: 'good-state', iss: 'https://auth.example' });
    await done;
    expect(mcp.finishSignIn).toHaveBeenCalledTimes(1);
    // The iss as it came back: the worker compares it with the authorization server it pinned (RFC 9207).
    expect(mcp.finishSignIn).toHaveBeenCalledWith('srv-1', 'the-code', 'good-state', 'https://auth.example');
  });

  it('the OAuth popup keeps no window.opener: it is cut before the popup navigates to the authorization server (issue 26 point 14)', async () => {
    const opener = fakeWindow(null);
    let openerWhenNavigated: unknown = 'never navigated';
    const popup = {
      opener: opener as unknown,
      close: vi.fn(),
      location: {
        get href() {
          return 'about:blank';
        },
        set href(_url: string) {
          openerWhenNavigated = popup.opener;
        },
      },
    };
    const done = signInWithPopup(control(), 'srv-1', new AbortController().signal, fakeWindow(popup));
    await vi.waitFor(() => expect(openerWhenNavigated).not.toBe('never navigated'));
    expect(openerWhenNavigated).toBeNull();
    answer({ code: 'the-code', state: 'good-state' });
    await done;
  });

  it('reports the authorization server’s refusal, and a blocked popup', async () => {
    const popup = { close: vi.fn(), location: { href: 'about:blank' } };
    const mcp = control();
    const done = signInWithPopup(mcp, 'srv-1', new AbortController().signal, fakeWindow(popup));
    await vi.waitFor(() => expect(popup.location.href).not.toBe('about:blank'));
    answer({ state: 'good-state', error: 'access_denied', errorDescription: 'The user said no' });
    await expect(done).rejects.toThrow('access_denied (The user said no)');
    expect(mcp.finishSignIn).not.toHaveBeenCalled();
    expect(popup.close).toHaveBeenCalled();

    await expect(signInWithPopup(control(), 'srv-1', new AbortController().signal, fakeWindow(null))).rejects.toThrow('blocked the sign-in window');
  });

  it('refuses an authorization URL that is not a web page', async () => {
    const popup = { close: vi.fn(), location: { href: 'about:blank' } };
    const mcp = control({ beginSignIn: vi.fn(async () => ({ kind: 'redirect' as const, authorizationUrl: 'javascript:alert(1)', state: 's' })) });
    await expect(signInWithPopup(mcp, 'srv-1', new AbortController().signal, fakeWindow(popup))).rejects.toThrow('not a web page');
    expect(popup.location.href).toBe('about:blank');
  });
});
