import type { Page } from '@playwright/test';
import { card, lastToolResult, openMcpSettings, send, setUpEndpoint } from './app.ts';
import { expect, test } from './fixtures.ts';
import type { OAuthServer } from './mcp-oauth.ts';

// A real server process, a popup, a reload: more time than the default on a shared machine.
test.describe.configure({ timeout: 120_000 });

/** Adds the OAuth server by its URL as "Secure" (with a Client ID, if given): the item, once it needs sign-in. */
async function addSecure(page: Page, oauthServer: OAuthServer, clientId?: string) {
  await openMcpSettings(page);
  const section = page.getByRole('region', { name: 'MCP servers' });
  await section.getByLabel('Server URL').fill(oauthServer.url);
  await section.getByLabel('Name (optional)').fill('Secure');
  if (clientId) await section.getByLabel('Client ID', { exact: true }).fill(clientId);
  await section.getByRole('button', { name: 'Connect', exact: true }).click();
  const server = section.getByRole('article', { name: 'Secure' });
  await expect(server.getByRole('status', { name: 'Status of Secure' })).toHaveText(/^Needs sign-in: /, { timeout: 20_000 });
  return server;
}

/** Sign in through the popup, which the authorization server sends back to the app's callback page, which closes it. */
async function signInThroughPopup(page: Page, server: ReturnType<Page['getByRole']>) {
  const popupOpened = page.waitForEvent('popup');
  await server.getByRole('button', { name: 'Sign in' }).click();
  const popup = await popupOpened;
  // The whole round trip is on this computer: the popup may be gone by the time its event arrives.
  if (!popup.isClosed()) await popup.waitForEvent('close', { timeout: 20_000 });
}

test('an MCP server behind OAuth: needs sign-in, signs in through the popup, calls a tool, stays signed in after a reload, signs out', async ({ page, llm, oauthServer }) => {
  await setUpEndpoint(page, llm);
  await openMcpSettings(page);
  const section = page.getByRole('region', { name: 'MCP servers' });
  await section.getByLabel('Server URL').fill(oauthServer.url);
  await section.getByLabel('Name (optional)').fill('Secure');
  await section.getByRole('button', { name: 'Connect', exact: true }).click();
  const server = section.getByRole('article', { name: 'Secure' });
  const status = server.getByRole('status', { name: 'Status of Secure' });
  await expect(status).toHaveText(/^Needs sign-in: /, { timeout: 20_000 });
  await expect(server.getByRole('button', { name: 'Sign out' })).toHaveCount(0);

  // The popup goes to the authorization server, which approves at once and sends it back to the app's callback page.
  await signInThroughPopup(page, server);
  await expect(status).toHaveText('Connected (Streamable HTTP)', { timeout: 20_000 });
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
  await expect(page.getByRole('status', { name: 'Status of Secure' })).toHaveText('Connected (Streamable HTTP)', { timeout: 20_000 });
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
  await expect(status).toHaveText('Connected (Streamable HTTP)', { timeout: 20_000 });

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
  await expect(status).toHaveText('Connected (Streamable HTTP)', { timeout: 20_000 });
  expect((await oauthServer.log()).filter((e) => e.event === 'sign_in')).toHaveLength(2);
});

test('client identity without dynamic registration (issue 26 point 8): a Client ID entered for the server signs in where the authorization server registers no clients', async ({ page, llm, oauthServer }) => {
  await setUpEndpoint(page, llm);
  const callback = new URL('/mcp-oauth-callback', page.url()).href;
  await oauthServer.configure({ metadata: { registration_endpoint: null }, clients: [{ client_id: 'pausepoint-by-hand', redirect_uris: [callback] }] });
  const server = await addSecure(page, oauthServer, 'pausepoint-by-hand');
  await signInThroughPopup(page, server);
  await expect(server.getByRole('status', { name: 'Status of Secure' })).toHaveText('Connected (Streamable HTTP)', { timeout: 20_000 });
  await expect(server.getByRole('switch', { name: 'whisper', exact: true })).toBeChecked();
  const log = await oauthServer.log();
  expect(log.filter((e) => e.event === 'sign_in').map((e) => e.clientId)).toEqual(['pausepoint-by-hand']);
  expect(log.filter((e) => e.event === 'register')).toEqual([]);
});
