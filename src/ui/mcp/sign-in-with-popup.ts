import type { McpControl } from '../../worker/agent-client.ts';
import { CALLBACK_CHANNEL, callbackUrl, readCallbackMessage, type CallbackMessage } from './oauth-callback.ts';

const SIGN_IN_TIMEOUT_MS = 10 * 60_000;

/**
 * One OAuth sign-in, from the page (the worker cannot open windows): opens
 * the popup at once — inside the click, or the browser blocks it — asks the
 * worker for the authorization URL, sends the popup there, and waits for the
 * callback page's code and state, which the worker checks and exchanges.
 * `signal` gives up the wait (a second press of Sign in, the item going away).
 */
export async function signInWithPopup(mcp: McpControl, serverId: string, signal: AbortSignal, win: Window = window): Promise<void> {
  const popup = win.open('about:blank', 'pausepoint-mcp-sign-in', 'popup,width=520,height=720');
  if (!popup) throw new Error('The browser blocked the sign-in window. Allow pop-ups for this app and press Sign in again.');
  try {
    const start = await mcp.beginSignIn(serverId, callbackUrl(win.document.baseURI));
    if (start.kind === 'authorized') {
      popup.close();
      return;
    }
    const address = new URL(start.authorizationUrl);
    if (address.protocol !== 'https:' && address.protocol !== 'http:') throw new Error('The authorization server gave an address that is not a web page.');
    const answer = waitForCallback(start.state, win.location.origin, signal);
    // The authorization server's pages get no handle on this tab (they could navigate it elsewhere):
    // a popup opened with `noopener` would give us none on the popup either, so the link is cut here.
    popup.opener = null;
    popup.location.href = address.href;
    const message = await answer;
    if (message.error || !message.code) {
      throw new Error(`The authorization server did not sign you in: ${message.error ?? 'no code'}${message.errorDescription ? ` (${message.errorDescription})` : ''}.`);
    }
    // The state and iss as they came back: the worker checks them against the sign-in it started.
    await mcp.finishSignIn(serverId, message.code, message.state ?? '', message.iss);
  } catch (error) {
    popup.close();
    throw error;
  }
}

function waitForCallback(state: string, origin: string, signal: AbortSignal): Promise<CallbackMessage> {
  return new Promise((resolve, reject) => {
    const channel = new BroadcastChannel(CALLBACK_CHANNEL);
    const done = () => {
      channel.close();
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      done();
      reject(new Error('Sign-in was cancelled.'));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error('Sign-in did not finish within 10 minutes. Press Sign in again.'));
    }, SIGN_IN_TIMEOUT_MS);
    signal.addEventListener('abort', onAbort);
    channel.onmessage = (event) => {
      const message = readCallbackMessage(event, origin);
      // Another sign-in's answer (another server, another tab) is not this one's.
      if (!message || message.state !== state) return;
      done();
      resolve(message);
    };
  });
}
