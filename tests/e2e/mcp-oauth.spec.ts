import type { Page } from '@playwright/test';
import { addServer, card, lastToolResult, openMcpSettings, send, setUpEndpoint } from './app.ts';
import { expect, test } from './fixtures.ts';
import type { OAuthServer } from './mcp-oauth.ts';

// A real server process, a popup, a reload: more time than the default on a shared machine.
test.describe.configure({ timeout: 120_000 });

/** Adds the OAuth server by its URL as "Secure" (with a Client ID, if given): the item, once it needs sign-in. */
function addSecure(page: Page, oauthServer: OAuthServer, clientId?: string) {
  return addServer(page, oauthServer.url, 'Secure', /^Needs sign-in: /, clientId ? { clientId } : {});
}

/** Sign in through the popup, which the authorization server sends back to the app's callback page, which closes it. */
async function signInThroughPopup(page: Page, server: ReturnType<Page['getByRole']>, button = 'Sign in') {
  const popupOpened = page.waitForEvent('popup');
  await server.getByRole('button', { name: button, exact: true }).click();
  const popup = await popupOpened;
  // The whole round trip is on this computer: the popup may be gone by the time its event arrives.
  if (!popup.isClosed()) await popup.waitForEvent('close', { timeout: 20_000 });
}

test('an MCP server behind OAuth: needs sign-in, signs in through the popup, calls a tool, stays signed in after a reload, signs out', async ({ page, llm, oauthServer }) => {
  await setUpEndpoint(page, llm);
  const server = await addSecure(page, oauthServer);
  const status = server.getByRole('status', { name: 'Status of Secure' });
  await expect(server.getByRole('button', { name: 'Sign out' })).toHaveCount(0);

  // The popup goes to the authorization server, which approves at once and sends it back to the app's callback page.
  await signInThroughPopup(page, server);
  await expect(status).toHaveText('Connected (Streamable HTTP, MCP 2025-11-25)', { timeout: 20_000 });
  await expect(server.getByRole('switch', { name: 'whisper', exact: true })).toBeChecked();
  await expect(server.getByRole('button', { name: 'Sign in' })).toHaveCount(0);
  const signIns = (await oauthServer.log()).filter((e) => e.event === 'sign_in');
  expect(signIns).toHaveLength(1);
  // The token is bound to this MCP server (RFC 8707 resource indicator).
  expect(signIns[0]!.resource).toBe(oauthServer.url);

  // A call through a card, with the token.
  llm.enqueue({ toolCalls: [{ id: 'call_whisper', name: 'secure__whisper', arguments: { message: 'signed in' } }] }, { content: 'Whispered.' });
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'whisper something');
  const whisper = card(page, 'Call whisper on Secure');
  await whisper.getByRole('button', { name: 'Approve' }).click();
  const [, second] = await llm.waitForChatRequests(2);
  expect(lastToolResult(second!.body)).toContain('Whispered back: signed in');
  await expect(page.getByText('Whispered.')).toBeVisible();

  // After a reload the worker connects with the stored token, with no sign-in.
  await page.reload();
  await openMcpSettings(page);
  await expect(page.getByRole('status', { name: 'Status of Secure' })).toHaveText('Connected (Streamable HTTP, MCP 2025-11-25)', { timeout: 20_000 });
  expect((await oauthServer.log()).filter((e) => e.event === 'sign_in')).toHaveLength(1);

  // Sign out: the tokens are revoked at the server and deleted here; the server needs sign-in again.
  const again = page.getByRole('article', { name: 'Secure' });
  await again.getByRole('button', { name: 'Sign out' }).click();
  await expect(again.getByRole('status', { name: 'Status of Secure' })).toHaveText(/^Needs sign-in: /, { timeout: 20_000 });
  await expect(again.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(again.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
  const revoked = (await oauthServer.log()).filter((e) => e.event === 'revoke');
  expect(revoked.map((e) => e.known)).toEqual([true, true]);
  const stored = await page.evaluate(async () => {
    const open = indexedDB.open('pausepoint');
    const db = await new Promise<IDBDatabase>((resolve, reject) => ((open.onsuccess = () => resolve(open.result)), (open.onerror = () => reject(open.error))));
    const rows = db.transaction('mcpOAuth').objectStore('mcpOAuth').getAll();
    return new Promise<unknown[]>((resolve) => (rows.onsuccess = () => resolve(rows.result)));
  });
  expect(stored).toEqual([expect.objectContaining({ tokens: null })]);
});

test('OAuth trusts the metadata pinned at sign-in, not what the server points to later (issue 26 point 7): a change means sign in again, endpoints elsewhere and a wrong iss are refused', async ({ page, llm, oauthServer }) => {
  await setUpEndpoint(page, llm);
  const server = await addSecure(page, oauthServer);
  const status = server.getByRole('status', { name: 'Status of Secure' });
  await signInThroughPopup(page, server);
  await expect(status).toHaveText('Connected (Streamable HTTP, MCP 2025-11-25)', { timeout: 20_000 });

  // Between sign-in and refresh the metadata moves the token endpoint to another origin (the same process answers there).
  const elsewhere = `http://127.0.0.1:${oauthServer.port}`;
  await oauthServer.configure({ metadata: { token_endpoint: `${elsewhere}/token` } });
  await oauthServer.expireTokens();
  const before = (await oauthServer.log()).length;
  await page.reload();
  await openMcpSettings(page);
  await expect(status).toHaveText(/^Needs sign-in: .*metadata changed since you signed in/, { timeout: 20_000 });
  const after = (await oauthServer.log()).slice(before);
  expect(after.filter((e) => e.event === 'refresh' || e.path === '/token')).toEqual([]);

  // Signing in again finds the new metadata, and refuses it: its token endpoint is not on the issuer's origin.
  await server.getByRole('button', { name: 'Sign in' }).click();
  await expect(server.getByRole('alert')).toHaveText(new RegExp(`^Sign in failed: .*puts its token endpoint on another origin \\(${elsewhere}/token\\)`), { timeout: 20_000 });

  // Signed out (the tokens are revoked at the pinned endpoint), so the next sign-in goes through the popup, not a refresh.
  await oauthServer.configure({});
  await server.getByRole('button', { name: 'Sign out' }).click();
  await expect(server.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
  expect((await oauthServer.log()).filter((e) => e.path === '/revoke').map((e) => e.host)).toEqual([`localhost:${oauthServer.port}`, `localhost:${oauthServer.port}`]);

  // An authorization server that says it names itself in the callback (RFC 9207), and names another: refused.
  await oauthServer.configure({ metadata: { authorization_response_iss_parameter_supported: true }, iss: 'http://evil.example/' });
  await signInThroughPopup(page, server);
  await expect(server.getByRole('alert')).toHaveText(/^Sign in failed: The sign-in answer came from another authorization server \(http:\/\/evil\.example\/\)/, { timeout: 20_000 });
  expect((await oauthServer.log()).filter((e) => e.event === 'sign_in')).toHaveLength(1);

  // Naming itself: signed in, and connected with the new tokens.
  await oauthServer.configure({ metadata: { authorization_response_iss_parameter_supported: true }, iss: 'issuer' });
  await signInThroughPopup(page, server);
  await expect(status).toHaveText('Connected (Streamable HTTP, MCP 2025-11-25)', { timeout: 20_000 });
  expect((await oauthServer.log()).filter((e) => e.event === 'sign_in')).toHaveLength(2);
});

test('client identity without dynamic registration (issue 26 point 8): a Client ID entered for the server signs in where the authorization server registers no clients', async ({ page, llm, oauthServer }) => {
  await setUpEndpoint(page, llm);
  const callback = new URL('/mcp-oauth-callback', page.url()).href;
  await oauthServer.configure({ metadata: { registration_endpoint: null }, clients: [{ client_id: 'pausepoint-by-hand', redirect_uris: [callback] }] });
  const server = await addSecure(page, oauthServer, 'pausepoint-by-hand');
  await signInThroughPopup(page, server);
  await expect(server.getByRole('status', { name: 'Status of Secure' })).toHaveText('Connected (Streamable HTTP, MCP 2025-11-25)', { timeout: 20_000 });
  await expect(server.getByRole('switch', { name: 'whisper', exact: true })).toBeChecked();
  const log = await oauthServer.log();
  expect(log.filter((e) => e.event === 'sign_in').map((e) => e.clientId)).toEqual(['pausepoint-by-hand']);
  expect(log.filter((e) => e.event === 'register')).toEqual([]);
});

test('a server that demands a scope through WWW-Authenticate (issue 34): Sign in asks for that scope, and the server connects', async ({ page, llm, oauthServer }) => {
  await setUpEndpoint(page, llm);
  // Its metadata lists only mcp:tools; its 401 names mcp:read, and a token without it gets 403.
  await oauthServer.configure({ requiredScopes: ['mcp:read'] });
  const server = await addSecure(page, oauthServer);
  await expect(server.getByRole('status', { name: 'Status of Secure' })).not.toHaveText(/\.\./);
  await signInThroughPopup(page, server);
  await expect(server.getByRole('status', { name: 'Status of Secure' })).toHaveText('Connected (Streamable HTTP, MCP 2025-11-25)', { timeout: 20_000 });
  await expect(server.getByRole('switch', { name: 'whisper', exact: true })).toBeChecked();
  expect((await oauthServer.log()).filter((e) => e.event === 'sign_in').map((e) => e.scopes)).toEqual([['mcp:read']]);
});

test('a 403 insufficient_scope on a call (issue 34): not run, "Needs more access", Sign in again asks for the scopes held and the new one, and the next call runs', async ({ page, llm, oauthServer }) => {
  await setUpEndpoint(page, llm);
  await oauthServer.configure({ requiredScopes: ['mcp:read'], toolScopes: { whisper: 'mcp:write' } });
  const server = await addSecure(page, oauthServer);
  const status = server.getByRole('status', { name: 'Status of Secure' });
  await signInThroughPopup(page, server);
  await expect(status).toHaveText('Connected (Streamable HTTP, MCP 2025-11-25)', { timeout: 20_000 });

  // The call is approved, meets the 403, and is answered to the model as not run; nothing is sent again.
  llm.enqueue({ toolCalls: [{ id: 'call_whisper', name: 'secure__whisper', arguments: { message: 'more' } }] }, { content: 'It needs more access.' });
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'whisper something');
  await card(page, 'Call whisper on Secure').getByRole('button', { name: 'Approve' }).click();
  const [, second] = await llm.waitForChatRequests(2);
  expect(lastToolResult(second!.body)).toContain('Not run: needs more access.');
  const log = await oauthServer.log();
  expect(log.filter((e) => e.event === 'insufficient_scope')).toHaveLength(1);
  expect(log.filter((e) => e.event === 'call' || e.event === 'refresh')).toEqual([]);

  await openMcpSettings(page);
  const again = page.getByRole('article', { name: 'Secure' });
  await expect(again.getByRole('status', { name: 'Status of Secure' })).toHaveText(/^Needs more access: .*scope mcp:write/);
  await expect(again.getByRole('button', { name: 'Sign in', exact: true })).toHaveCount(0);
  await signInThroughPopup(page, again, 'Sign in again');
  await expect(again.getByRole('status', { name: 'Status of Secure' })).toHaveText('Connected (Streamable HTTP, MCP 2025-11-25)', { timeout: 20_000 });
  expect((await oauthServer.log()).filter((e) => e.event === 'sign_in').map((e) => e.scopes)).toEqual([['mcp:read'], ['mcp:read', 'mcp:write']]);

  // Asked again, the call runs with the new token.
  llm.enqueue({ toolCalls: [{ id: 'call_whisper_2', name: 'secure__whisper', arguments: { message: 'granted' } }] }, { content: 'Whispered.' });
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'whisper again');
  await card(page, 'Call whisper on Secure').getByRole('button', { name: 'Approve' }).click();
  const [, , , fourth] = await llm.waitForChatRequests(4);
  expect(lastToolResult(fourth!.body)).toContain('Whispered back: granted');
});
