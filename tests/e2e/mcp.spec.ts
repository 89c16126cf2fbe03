import type { Page } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import { addServer, card, lastToolResult, openMcpSettings, send, setUpEndpoint } from './app.ts';
import { expect, mcpPort, test } from './fixtures.ts';

// Each test starts a real server process (and this machine is shared): more time than the default.
test.describe.configure({ timeout: 120_000 });



async function backToChat(page: Page) {
  await page.getByRole('button', { name: 'New chat' }).click();
}

test('connect server-everything by URL, list its tools, and call echo and get-sum through cards', async ({ page, llm, everything }) => {
  await setUpEndpoint(page, llm);
  const server = await addServer(page, everything.url, 'Everything', /^Connected \(Streamable HTTP, MCP 2025-11-25\)$/);
  const tools = server.getByRole('list', { name: 'Tools of Everything' });
  await expect(tools.getByRole('switch', { name: 'echo', exact: true })).toBeChecked();
  await expect(tools.getByRole('listitem').filter({ hasText: 'get-sum' })).toContainText('read-only');
  await expect(tools.getByRole('listitem').filter({ hasText: 'Echoes back the input string' })).toBeVisible();

  llm.enqueue(
    { toolCalls: [{ id: 'call_echo', name: 'everything__echo', arguments: { message: 'hello from the browser' } }] },
    { content: 'Echoed.' },
    { toolCalls: [{ id: 'call_sum_1', name: 'everything__get-sum', arguments: { a: 2, b: 3 } }] },
    { content: 'Not added.' },
    { toolCalls: [{ id: 'call_sum_2', name: 'everything__get-sum', arguments: { a: 2, b: 3 } }] },
    { content: 'Added.' },
  );
  await backToChat(page);
  // The tools are offered under their prefixed names, with the server's schemas.
  await send(page, 'echo something');
  const [first] = await llm.waitForChatRequests(1);
  const offered = (first!.body.tools ?? []).map((t) => (t as { function: { name: string } }).function.name);
  expect(offered).toEqual(expect.arrayContaining(['everything__echo', 'everything__get-sum', 'everything__trigger-long-running-operation']));

  const echo = card(page, 'Call echo on Everything');
  await expect(echo).toBeVisible();
  await expect(echo).toContainText(everything.url);
  await expect(echo).toContainText('read-only');
  await echo.getByRole('button', { name: 'Approve' }).click();
  const [, second] = await llm.waitForChatRequests(2);
  expect(lastToolResult(second!.body)).toContain('Echo: hello from the browser');
  await expect(page.getByText('Echoed.')).toBeVisible();

  // Declined: the server is never called, the model is told why.
  await send(page, 'add two and three');
  const sum = card(page, 'Call get-sum on Everything');
  await sum.getByLabel('Reason').fill('not now');
  await sum.getByRole('button', { name: 'Decline' }).click();
  const [, , , fourth] = await llm.waitForChatRequests(4);
  expect(lastToolResult(fourth!.body)).toContain('The user declined this call');
  expect(lastToolResult(fourth!.body)).toContain('not now');

  // Edited: an edit the schema refuses is refused on the card; a valid one runs.
  await send(page, 'add again');
  const edited = page.locator('section[data-pause-point]').filter({ hasText: 'Call get-sum on Everything' }).last();
  await expect(edited.getByRole('button', { name: 'Approve' })).toBeVisible();
  await edited.getByRole('textbox', { name: 'Payload' }).fill('{"a": "forty", "b": 2}');
  await edited.getByRole('button', { name: 'Approve' }).click();
  await expect(edited.getByRole('alert')).toContainText('Expected "number"');
  await edited.getByRole('textbox', { name: 'Payload' }).fill('{"a": 40, "b": 2}');
  await edited.getByRole('button', { name: 'Approve' }).click();
  const [, , , , , sixth] = await llm.waitForChatRequests(6);
  expect(lastToolResult(sixth!.body)).toContain('The sum of 40 and 2 is 42.');
  expect(lastToolResult(sixth!.body)).toContain('The user edited the arguments before approving');

  // Stored: after a reload the worker connects again by itself.
  await page.reload();
  await openMcpSettings(page);
  await expect(page.getByRole('status', { name: 'Status of Everything' })).toHaveText(/^Connected/, { timeout: 20_000 });
});

test('an image a tool returns is shown in the call’s row; the model gets a placeholder', async ({ page, llm, everything }) => {
  await setUpEndpoint(page, llm);
  await addServer(page, everything.url, 'Everything', /^Connected/);
  llm.enqueue({ toolCalls: [{ id: 'call_image', name: 'everything__get-tiny-image', arguments: {} }] }, { content: 'Here it is.' });
  await backToChat(page);
  await send(page, 'show me the logo');
  await card(page, 'Call get-tiny-image on Everything').getByRole('button', { name: 'Approve' }).click();

  const [, second] = await llm.waitForChatRequests(2);
  const result = lastToolResult(second!.body);
  expect(result).toContain('[image: image/png');
  expect(result).toContain('not shown to the model');
  expect(result).toContain('The image above is the MCP logo.');
  expect(result).not.toContain('iVBORw0KGgo');

  const image = page.getByRole('img', { name: /^Image 1 returned by get-tiny-image on Everything \(image\/png, / });
  await expect(image).toBeVisible();
  // Decoded under the app's CSP (img-src allows data:): a 20×20 PNG, not a broken image.
  expect(await image.evaluate((img: HTMLImageElement) => [img.complete, img.naturalWidth, img.naturalHeight])).toEqual([true, 20, 20]);
  expect(await image.getAttribute('src')).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
  await expect(page.getByText('Here it is.')).toBeVisible();
});

test('the server asks for information mid-call: a form card, and the answer goes back to it', async ({ page, llm, everything }) => {
  await setUpEndpoint(page, llm);
  await addServer(page, everything.url, 'Everything', /^Connected/);
  llm.enqueue({ toolCalls: [{ id: 'call_ask', name: 'everything__trigger-elicitation-request', arguments: {} }] }, { content: 'Thanks.' });
  await backToChat(page);
  await send(page, 'ask me something');

  const gate = card(page, 'Call trigger-elicitation-request on Everything');
  await expect(gate).toContainText('may change things');
  await gate.getByRole('button', { name: 'Approve' }).click();
  const form = card(page, 'Everything asks for information');
  await expect(form).toContainText('Please provide inputs for the following fields:');
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(form.getByText('String is required.')).toBeVisible();
  await form.getByRole('textbox', { name: 'String', exact: true }).fill('Ada Lovelace');
  await form.getByRole('button', { name: 'Submit' }).click();

  const [, second] = await llm.waitForChatRequests(2);
  const result = lastToolResult(second!.body);
  expect(result).toContain('User provided the requested information');
  expect(result).toContain('- Name: Ada Lovelace');
  await expect(page.getByText('Thanks.')).toBeVisible();
});

test('the server asks the user to open a link: the card shows it whole, and it opens only when Open link is pressed', async ({ page, llm, everything }) => {
  const link = 'https://auth.example.test/finish?session=42';
  const opened: string[] = [];
  // The link's site, answered here: nothing leaves the machine, and every load of it is seen.
  await page.context().route('https://auth.example.test/**', (route) => (opened.push(route.request().url()), route.fulfill({ contentType: 'text/html', body: '<title>Signed in</title>' })));
  await setUpEndpoint(page, llm);
  await addServer(page, everything.url, 'Everything', /^Connected/);
  llm.enqueue({ toolCalls: [{ id: 'call_link', name: 'everything__trigger-url-elicitation', arguments: { url: link, message: 'Finish signing in there.' } }] }, { content: 'Done.' });
  await backToChat(page);
  await send(page, 'sign me in');

  await card(page, 'Call trigger-url-elicitation on Everything').getByRole('button', { name: 'Approve' }).click();
  const linkCard = card(page, 'Everything asks you to open a link');
  await expect(linkCard).toContainText('Finish signing in there.');
  await expect(linkCard.locator('.link-to-open code')).toHaveText(link);
  await expect(linkCard.locator('.link-to-open strong')).toHaveText('auth.example.test');
  await expect(linkCard.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  expect(opened).toEqual([]);

  const popup = page.context().waitForEvent('page');
  await linkCard.getByRole('button', { name: 'Open link' }).click();
  const tab = await popup;
  await expect.poll(() => tab.url()).toBe(link);
  // Opened with noopener: the new tab cannot reach back into the app.
  expect(await tab.evaluate(() => window.opener)).toBeNull();

  const [, second] = await llm.waitForChatRequests(2);
  expect(lastToolResult(second!.body)).toContain('User completed the URL elicitation flow');
  await expect(page.getByText('Done.')).toBeVisible();
});

test('a sampling request is a card; approved, the user’s model answers it and the answer goes back to the server', async ({ page, llm, everything }) => {
  await setUpEndpoint(page, llm);
  await addServer(page, everything.url, 'Everything', /^Connected/);
  llm.enqueue(
    { toolCalls: [{ id: 'call_sample', name: 'everything__trigger-sampling-request', arguments: { prompt: 'Say **hi**', maxTokens: 40 } }] },
    { content: 'Hello from your model.' },
    { content: 'The server got its answer.' },
  );
  await backToChat(page);
  await send(page, 'let the server ask');

  await card(page, 'Call trigger-sampling-request on Everything').getByRole('button', { name: 'Approve' }).click();
  const sampling = card(page, 'Everything asks to use your model');
  // The server's words as literal text: its markdown is not rendered.
  await expect(sampling).toContainText('Resource trigger-sampling-request context: Say **hi**');
  await expect(sampling).toContainText('You are a helpful test server.');
  await expect(sampling).toContainText('Max tokens (the server asks for at most): 40');
  expect(llm.chatRequests()).toHaveLength(1);
  await sampling.getByRole('button', { name: 'Approve' }).click();

  const [, asked, last] = await llm.waitForChatRequests(3);
  expect(asked!.body.messages).toEqual([
    { role: 'system', content: 'You are a helpful test server.' },
    { role: 'user', content: 'Resource trigger-sampling-request context: Say **hi**' },
  ]);
  expect(asked!.body.tools ?? []).toEqual([]);
  // The server's cap bounds the answer (the user's own limit is higher).
  expect(asked!.body.max_tokens).toBe(40);
  const result = lastToolResult(last!.body);
  expect(result).toContain('Hello from your model.');
  expect(result).toContain('"role": "assistant"');
  await expect(page.getByText('The server got its answer.')).toBeVisible();
});

test('a declined sampling request is refused to the server, and the model is not asked', async ({ page, llm, everything }) => {
  await setUpEndpoint(page, llm);
  await addServer(page, everything.url, 'Everything', /^Connected/);
  llm.enqueue({ toolCalls: [{ id: 'call_sample', name: 'everything__trigger-sampling-request', arguments: { prompt: 'hi' } }] }, { content: 'Refused, then.' });
  await backToChat(page);
  await send(page, 'let the server ask');
  await card(page, 'Call trigger-sampling-request on Everything').getByRole('button', { name: 'Approve' }).click();
  await card(page, 'Everything asks to use your model').getByRole('button', { name: 'Decline' }).click();
  const [, second] = await llm.waitForChatRequests(2);
  expect(lastToolResult(second!.body)).toContain('Sampling is refused: the user did not approve this request to use their model.');
  await expect(page.getByText('Refused, then.')).toBeVisible();
});

test('the server killed mid-call leaves the outcome unknown; started again, it is reconnected', async ({ page, llm, everything }) => {
  await setUpEndpoint(page, llm);
  await addServer(page, everything.url, 'Everything', /^Connected/);
  llm.enqueue({ toolCalls: [{ id: 'call_long', name: 'everything__trigger-long-running-operation', arguments: { duration: 30, steps: 30 } }] });
  await backToChat(page);
  await send(page, 'run the long operation');
  await card(page, 'Call trigger-long-running-operation on Everything').getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Running', { exact: true }).first()).toBeVisible();
  await page.waitForTimeout(1_500);
  await everything.kill();

  const unknown = card(page, 'Did “everything__trigger-long-running-operation” finish?');
  await expect(unknown).toBeVisible({ timeout: 15_000 });
  await expect(unknown).toContainText('connection to the server was lost');
  await expect(unknown.getByRole('button', { name: 'Run again' })).toBeVisible();
  expect(llm.chatRequests()).toHaveLength(1); // nothing was reported to the model as done or failed

  await everything.restart();
  await openMcpSettings(page);
  await expect(page.getByRole('status', { name: 'Status of Everything' })).toHaveText(/^Connected/, { timeout: 30_000 });
});

test('the legacy SSE transport connects too', async ({ page, llm, everythingSse }) => {
  await setUpEndpoint(page, llm);
  const server = await addServer(page, everythingSse.url, 'Old server', /^Connected \(legacy SSE, MCP 2025-11-25\)$/);
  await expect(server.getByRole('switch', { name: 'echo', exact: true })).toBeVisible();
});

test('a server that does not allow this page fails to connect with the headers it must send', async ({ page, llm }, testInfo) => {
  // A plain HTTP server with no CORS headers at all: the browser refuses to read its answers.
  const port = mcpPort(testInfo.workerIndex, 9);
  const plain: Server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  await new Promise<void>((resolve) => plain.listen(port, '127.0.0.1', resolve));
  try {
    await setUpEndpoint(page, llm);
    const server = await addServer(page, `http://localhost:${port}/mcp`, 'No CORS', /^Failed: /);
    const status = server.getByRole('status', { name: 'Status of No CORS' });
    await expect(status).toContainText('Access-Control-Allow-Origin');
    await expect(status).toContainText('mcp-session-id');
    await expect(status).toContainText('Access-Control-Expose-Headers');
  } finally {
    await new Promise((resolve) => plain.close(resolve));
  }
});
