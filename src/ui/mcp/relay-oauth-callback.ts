import { CALLBACK_CHANNEL, type CallbackMessage } from './oauth-callback.ts';

// Loaded by main.ts only in the sign-in popup (oauth-callback.ts): every other page load leaves it out of its start-up JavaScript.

/** Passes the callback's parameters on, removes them from the address bar, and closes the popup. */
export function relayOAuthCallback(win: Window, target: HTMLElement): void {
  const params = new URLSearchParams(win.location.search);
  const message: CallbackMessage = {
    type: 'mcp-oauth-callback',
    code: params.get('code'),
    state: params.get('state'),
    iss: params.get('iss'),
    error: params.get('error'),
    errorDescription: params.get('error_description'),
  };
  win.history.replaceState(null, '', win.location.pathname);
  const channel = new BroadcastChannel(CALLBACK_CHANNEL);
  channel.postMessage(message);
  channel.close();
  target.textContent = message.code ? 'Signed in. You can close this window.' : 'Sign-in did not complete. You can close this window.';
  win.close();
}
