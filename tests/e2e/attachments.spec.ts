import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { FakeLlm } from '../fake-llm/index.ts';
import { setUpEndpoint } from './app.ts';
import { expect, test } from './fixtures.ts';
import { expectNoSeriousViolations } from './page-checks.ts';

/** A 1×1 PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const png = (name = 'dot.png') => ({ name, mimeType: 'image/png', buffer: Buffer.from(PNG_BASE64, 'base64') });

/** Attach files as a person does: Attach files, then the file chooser. */
async function attach(page: Page, ...files: { name: string; mimeType: string; buffer: Buffer }[]) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Attach files' }).click();
  await (await chooser).setFiles(files);
}

/** The user message's content parts of the last chat request. */
function lastUserParts(llm: FakeLlm): unknown[] {
  const user = llm.chatRequests().at(-1)?.body.messages.filter((m) => m.role === 'user').at(-1);
  return Array.isArray(user?.content) ? user.content : [];
}

const chips = (page: Page) => page.getByRole('list', { name: 'Attached files' });

test('a PNG attached with Attach files reaches the model as an image part, and the message shows it after a reload', async ({ page, llm }) => {
  llm.onRequest(() => ({ content: 'A single dot.' }));
  await setUpEndpoint(page, llm);
  await attach(page, png());
  const chip = chips(page).getByRole('listitem');
  await expect(chip).toContainText('dot.png');
  await expect(chip).toContainText('70 B');
  await expect(chip.getByRole('img', { name: 'Preview of dot.png' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Message' }).fill('What is this?');
  await page.getByRole('button', { name: 'Send', exact: true }).click();

  await expect(page.getByText('A single dot.')).toBeVisible();
  expect(lastUserParts(llm)).toEqual([
    { type: 'text', text: 'What is this?' },
    { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
  ]);
  // Sent: the composer is empty again, and the message shows its image.
  await expect(chips(page)).toHaveCount(0);
  const shown = page.getByRole('img', { name: 'dot.png', exact: true });
  await expect(shown).toBeVisible();
  await expect(shown).toHaveAttribute('src', /^blob:/);

  await page.reload();
  await expect(page.getByRole('img', { name: 'dot.png', exact: true })).toBeVisible();
  expect(await page.getByRole('img', { name: 'dot.png', exact: true }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
});

test('a text file goes as a text part with its name; Remove takes a file out before sending', async ({ page, llm }) => {
  llm.onRequest(() => ({ content: 'Read it.' }));
  await setUpEndpoint(page, llm);
  await attach(page, png('not-this.png'), { name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Plan\n- buy milk\n') });
  await expect(chips(page).getByRole('listitem')).toHaveCount(2);
  const remove = chips(page).getByRole('listitem').filter({ hasText: 'not-this.png' }).getByRole('button', { name: 'Remove' });
  // Each Remove is described by its file's name, so a screen reader says which.
  await expect(remove).toHaveAccessibleDescription('not-this.png');
  await remove.click();
  await expect(chips(page).getByRole('listitem')).toHaveCount(1);
  await expect(chips(page)).not.toContainText('not-this.png');
  // A message of files only can be sent.
  await page.getByRole('button', { name: 'Send', exact: true }).click();

  await expect(page.getByText('Read it.')).toBeVisible();
  expect(lastUserParts(llm)).toEqual([{ type: 'text', text: '<attached_file>\nAttached file "notes.md" (text/markdown):\n```\n# Plan\n- buy milk\n\n```\n</attached_file>' }]);
  await expect(page.getByRole('list', { name: 'Files in this message' })).toContainText('notes.md');
});

test('a PDF goes as a text part holding its text, read by pdf.js in its own worker under the app’s CSP', async ({ page, llm }) => {
  await page.addInitScript(() => {
    const w = window as unknown as { __violations: string[] };
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (event) => w.__violations.push(`${event.effectiveDirective} ${event.blockedURI}`));
  });
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  llm.onRequest(() => ({ content: 'Two pages.' }));
  await setUpEndpoint(page, llm);
  // Two at once: files attached together are read together, by one pdf.js worker.
  const pdf = readFileSync(new URL('../fixtures/two-pages.pdf', import.meta.url));
  await attach(page, { name: 'two-pages.pdf', mimeType: 'application/pdf', buffer: pdf }, { name: 'again.pdf', mimeType: 'application/pdf', buffer: pdf });
  await expect(chips(page).getByRole('listitem')).toHaveCount(2);
  await page.getByRole('button', { name: 'Send', exact: true }).click();

  await expect(page.getByText('Two pages.')).toBeVisible();
  const text = '```\nPausepoint reads the text of this PDF.\n\nPage two, line one.\nLine two.\n```';
  expect(lastUserParts(llm)).toEqual([
    { type: 'text', text: `<attached_file>\nAttached file "two-pages.pdf" (application/pdf):\n${text}\n</attached_file>` },
    { type: 'text', text: `<attached_file>\nAttached file "again.pdf" (application/pdf):\n${text}\n</attached_file>` },
  ]);
  // Parsed in pdf.js's bundled same-origin worker (not on the page), and nothing was refused on the way.
  expect(workers.some((url) => new URL(url).origin === new URL(page.url()).origin && /\/assets\/pdf\.worker[^/]*\.js$/.test(url))).toBe(true);
  expect(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).toEqual([]);
});

test('a PDF that is not one is refused next to the composer, naming it, and nothing is sent', async ({ page, llm }) => {
  await setUpEndpoint(page, llm);
  await attach(page, { name: 'broken.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\nnot really a PDF') });
  await expect(page.getByRole('alert')).toContainText('“broken.pdf” could not be read as a PDF');
  await expect(chips(page)).toHaveCount(0);
  expect(llm.chatRequests()).toHaveLength(0);
});

test('a file over the size limit is refused next to the composer, and nothing is sent', async ({ page, llm }) => {
  await setUpEndpoint(page, llm);
  await page.getByRole('textbox', { name: 'Message' }).fill('Here is the scan');
  await attach(page, { name: 'scan.png', mimeType: 'image/png', buffer: Buffer.alloc(8_000_001) });
  await expect(page.getByRole('alert')).toHaveText('“scan.png” is 8.0 MB: a file can be at most 8.0 MB.');
  await expect(chips(page)).toHaveCount(0);
  // What was typed stays.
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('Here is the scan');
  expect(llm.chatRequests()).toHaveLength(0);
});

test('an image the endpoint refuses: the error shows on its message, Edit removes the file, and the next request carries no image and succeeds (issue 32, point 4)', async ({ page, llm }) => {
  const carriesImage = (body: { messages: unknown[] }) => JSON.stringify(body.messages).includes('"image_url"');
  // As a provider refuses an image over its size limit: every request that carries it.
  llm.onRequest((req) =>
    carriesImage(req.body) ? { fault: 'status', status: 400, message: 'Image exceeds the 5 MB maximum for this model.' } : { content: 'Answered without the picture.' },
  );
  await setUpEndpoint(page, llm);
  await attach(page, png('holiday.png'), { name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Trip\n') });
  await expect(chips(page).getByRole('listitem')).toHaveCount(2);
  await page.getByRole('textbox', { name: 'Message' }).fill('Where was this taken?');
  await page.getByRole('button', { name: 'Send', exact: true }).click();

  const messages = page.getByRole('region', { name: 'Messages' });
  const asked = messages.getByRole('listitem').filter({ hasText: 'Where was this taken?' });
  await expect(asked).toContainText('The endpoint refused the request that carried this message’s files');
  await expect(asked).toContainText('Image exceeds the 5 MB maximum for this model.');
  expect(llm.chatRequests()).toHaveLength(1);

  await asked.getByRole('button', { name: 'Edit', exact: true }).click();
  const files = messages.getByRole('list', { name: 'Files to send' });
  await expect(files.getByRole('listitem')).toHaveCount(2);
  const remove = files.getByRole('listitem').filter({ hasText: 'holiday.png' }).getByRole('button', { name: 'Remove' });
  await expect(remove).toHaveAccessibleDescription('holiday.png');
  await remove.click();
  await expect(files.getByRole('listitem')).toHaveCount(1);
  await messages.getByRole('button', { name: 'Send', exact: true }).click();

  await expect(messages.getByText('Answered without the picture.')).toBeVisible();
  const [, second] = await llm.waitForChatRequests(2);
  expect(carriesImage(second!.body)).toBe(false);
  expect(lastUserParts(llm)).toEqual([
    { type: 'text', text: 'Where was this taken?' },
    { type: 'text', text: '<attached_file>\nAttached file "notes.md" (text/markdown):\n```\n# Trip\n\n```\n</attached_file>' },
  ]);
  // The version shown has no refusal left on it; the earlier one, with the image, is kept.
  await expect(messages.getByText('The endpoint refused the request that carried this message’s files')).toHaveCount(0);
  await expect(messages.getByRole('img', { name: 'holiday.png', exact: true })).toHaveCount(0);
});

test('a model known to take no images says so before anything is sent', async ({ page, llm }) => {
  await setUpEndpoint(page, llm);
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('combobox', { name: 'Model' }).fill('gpt-3.5-turbo');
  await page.getByRole('button', { name: 'Save', exact: true }).first().click(); // the Model section's; Push notifications has its own
  // Saved before the next request: a Send right after the press could still go out on the settings before.
  await expect(page.getByText('Saved. New requests use these settings.')).toBeVisible();
  await page.getByRole('button', { name: 'New chat' }).click();
  await attach(page, png());
  await page.getByRole('textbox', { name: 'Message' }).fill('What is this?');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Not sent: the model gpt-3.5-turbo does not take images.');
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('What is this?');
  await expect(chips(page).getByRole('listitem')).toHaveCount(1);
  expect(llm.chatRequests()).toHaveLength(0);
});

test('files dropped on the conversation or pasted into the message box join the message', async ({ page, llm }) => {
  llm.onRequest(() => ({ content: 'Got both.' }));
  await setUpEndpoint(page, llm);
  const files = (name: string, text: string) =>
    page.evaluateHandle(
      ({ n, t }) => {
        const data = new DataTransfer();
        data.items.add(new File([t], n, { type: 'text/plain' }));
        return data;
      },
      { n: name, t: text },
    );
  await page.getByRole('region', { name: 'New chat' }).dispatchEvent('drop', { dataTransfer: await files('dropped.txt', 'from a drop') });
  await expect(chips(page)).toContainText('dropped.txt');
  const pasted = await files('pasted.txt', 'from a paste');
  await page.getByRole('textbox', { name: 'Message' }).evaluate((box, data) => box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true })), pasted);
  await expect(chips(page)).toContainText('pasted.txt');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByText('Got both.')).toBeVisible();
  expect(lastUserParts(llm)).toEqual([
    { type: 'text', text: '<attached_file>\nAttached file "dropped.txt" (text/plain):\n```\nfrom a drop\n```\n</attached_file>' },
    { type: 'text', text: '<attached_file>\nAttached file "pasted.txt" (text/plain):\n```\nfrom a paste\n```\n</attached_file>' },
  ]);
});

for (const { width, height } of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`at ${width} px: Attach files, the chips, an error and a sent message's image are axe clean and fit the screen`, async ({ page, llm }) => {
    test.setTimeout(60_000);
    await page.setViewportSize({ width, height });
    llm.onRequest(() => ({ content: 'Seen.' }));
    await setUpEndpoint(page, llm);
    await attach(page, png(), { name: 'archive.zip', mimeType: 'application/zip', buffer: Buffer.from('PK') });
    await expect(chips(page).getByRole('listitem')).toHaveCount(1);
    await expect(page.getByRole('alert')).toContainText('“archive.zip” cannot be attached');
    await expectNoSeriousViolations(page);
    const composer = page.getByRole('button', { name: 'Attach files' });
    const box = await composer.boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(width);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByRole('img', { name: 'dot.png', exact: true })).toBeVisible();
    await expectNoSeriousViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1)).toBe(true);
  });
}
