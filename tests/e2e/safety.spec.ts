import { card, send, setUpEndpoint, setUpEndpointThroughUi, waitCall } from './app.ts';
import { API_KEY, expect, test } from './fixtures.ts';

test('a gated POST approved once causes exactly one request to its target', async ({ page, llm }) => {
  const target = `${llm.origin}/sink/orders`;
  llm.enqueue(
    { toolCalls: [{ id: 'call_post', name: 'http_request', arguments: { method: 'POST', url: target, body: '{"sku":"A-1","qty":3}' } }] },
    { content: 'Order placed.' },
  );
  await setUpEndpoint(page, llm);
  await send(page, 'place the order');

  const gate = card(page, `POST to ${new URL(target).host}`);
  await expect(gate).toBeVisible();
  expect(llm.sinkHits()).toHaveLength(0); // the gate runs before the side effect
  await gate.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Order placed.')).toBeVisible();

  await page.reload();
  await expect(page.getByText('Order placed.')).toBeVisible();
  expect(llm.sinkHits('/sink/orders')).toHaveLength(1);
  expect(llm.sinkHits()[0]!.body).toEqual({ sku: 'A-1', qty: 3 });
  expect(llm.chatRequests()).toHaveLength(2);
});

test('injection attempts in model text and in cards execute nothing', async ({ page, llm }) => {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const evil = [
    'Hello <script>window.__pwned = "script"</script>',
    '<img src="x" onerror="window.__pwned = \'img\'">',
    '[click me](javascript:window.__pwned=\'link\')',
    '<iframe src="javascript:window.__pwned=\'iframe\'"></iframe>',
    '<a href="https://example.com" onclick="window.__pwned=\'onclick\'">safe link</a>',
    '<svg><script>window.__pwned="svg"</script></svg>',
  ].join('\n\n');
  llm.enqueue(
    { content: evil },
    waitCall({
      title: '<img src=x onerror="window.__pwned=\'title\'">Approve me',
      description: `${evil}\n\n<form action="https://evil.example"><button>Approve</button></form>`,
      payload: { note: '<script>window.__pwned="payload"</script>' },
    }),
  );
  await setUpEndpoint(page, llm);
  await send(page, 'say hello');
  await expect(page.getByText('Hello').first()).toBeVisible();
  await send(page, 'now ask me');
  const region = page.getByRole('region', { name: /Approve me/ });
  await expect(region).toBeVisible();
  await expect(region.getByText('safe link')).toBeVisible();

  await page.getByText('click me').first().click();
  await page.getByText('safe link').first().click({ modifiers: ['ControlOrMeta'] });
  expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);
  expect(await page.locator('main script, main iframe, main form[action]').count()).toBe(0);
  expect(await page.locator('main [onerror], main [onclick]').count()).toBe(0);
  const hrefs = await page.locator('main a[href]').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  expect(hrefs.filter((href) => /^\s*javascript:/i.test(href))).toEqual([]);
  for (const link of await page.locator('main a[href^="https://example.com"]').all()) {
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', /noopener/);
  }
  // Only one Approve button in the card: the model's fake form button was removed.
  await expect(region.getByRole('button', { name: 'Approve' })).toHaveCount(1);
});

test('the API key goes to the configured endpoint and to no other origin', async ({ context, page, llm }) => {
  const leaks: string[] = [];
  const toEndpoint: string[] = [];
  context.on('request', (request) => {
    const headers = request.headers();
    const carriesKey = Object.values(headers).some((v) => v.includes(API_KEY)) || (request.postData() ?? '').includes(API_KEY) || request.url().includes(API_KEY);
    if (!carriesKey) return;
    if (new URL(request.url()).origin === llm.origin) toEndpoint.push(request.url());
    else leaks.push(request.url());
  });
  llm.enqueue(
    { toolCalls: [{ id: 'call_get', name: 'http_request', arguments: { method: 'GET', url: `${llm.origin}/sink/lookup` } }] },
    { content: 'Looked it up.' },
  );
  // Through the setup screen: the key typed into its form and saved is part of what must not leak.
  await setUpEndpointThroughUi(page, llm);
  await send(page, 'look something up');
  // A read from the endpoint's own origin is not allowed implicitly: it asks like any other.
  await card(page, `GET to ${new URL(llm.origin).host}`).getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Looked it up.')).toBeVisible();

  expect(leaks).toEqual([]);
  expect(toEndpoint.length).toBeGreaterThanOrEqual(2);
  // The http_request tool never forwards the key, even to the endpoint's own host.
  expect(llm.sinkHits('/sink/lookup')[0]!.headers.authorization).toBeUndefined();
  expect(llm.chatRequests().every((r) => r.headers.authorization === `Bearer ${API_KEY}`)).toBe(true);
});
