import { card, lastToolResult, openMcpSettings, send, setUpEndpoint } from './app.ts';
import { expect, test } from './fixtures.ts';

// A real server process, a popup, a reload: more time than the default on a shared machine.
test.describe.configure({ timeout: 120_000 });


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
  const popupOpened = page.waitForEvent('popup');
  await server.getByRole('button', { name: 'Sign in' }).click();
  const popup = await popupOpened;
  await popup.waitForEvent('close', { timeout: 20_000 });
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
