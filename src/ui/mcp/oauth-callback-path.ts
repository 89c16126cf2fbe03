/**
 * Where the sign-in popup lands (oauth-callback.ts), and the check main.ts makes
 * on every start: apart from the rest of the callback, which only the popup and
 * Settings load, so that a start-up imports nothing else of it.
 */
export const CALLBACK_PATH = 'mcp-oauth-callback';

export function isOAuthCallback(location: Pick<Location, 'pathname'>): boolean {
  return location.pathname.endsWith(`/${CALLBACK_PATH}`);
}
