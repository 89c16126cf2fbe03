import { writeFile } from 'node:fs/promises';
import { makeZip } from '../../src/conversation-file/testing/make-zip.ts';
import { syntheticConversations } from '../../src/conversation-file/testing/synthetic-chatgpt-export.ts';
import { recordProgressLabels, setUpEndpoint } from './app.ts';
import { expect, test } from './fixtures.ts';

/**
 * Issue 35, point 1: a ChatGPT export far past the old 50 MB cap's spirit
 * (hundreds of conversations) comes in through Settings › Import
 * conversations, read as a stream by the import worker: its progress shows
 * conversations and bytes, and its conversations appear in the sidebar.
 */
test('a multi-conversation ChatGPT export is imported with progress, and its conversations appear', async ({ page, llm }, testInfo) => {
  const spec = { conversations: 400, messagesPerConversation: 30, textBytes: 1_500 };
  const conversations = [...syntheticConversations(spec)];
  const path = testInfo.outputPath('conversations.json');
  await writeFile(path, `[${conversations.join(',')}]`);
  const last = JSON.parse(conversations.at(-1)!) as { title: string };

  await setUpEndpoint(page, llm);
  await page.getByRole('link', { name: 'Settings' }).click();
  const panel = page.getByRole('region', { name: 'Import conversations' });
  const progressSeen = await recordProgressLabels(panel);
  await panel.getByLabel('Import conversations').setInputFiles(path);
  await expect(panel.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await expect(panel.getByRole('status')).toContainText('Imported 400 conversations from the ChatGPT export, with ', { timeout: 60_000 });
  await expect(panel.getByRole('button', { name: 'Cancel' })).toHaveCount(0);

  const seen = await progressSeen();
  expect(seen[0]).toMatch(/^Importing: 0 conversations, 0\.0 MB of \d+ MB$/);
  // Bytes went up before the end, and conversations were counted as their batches were written.
  expect(seen.some((label) => /^Importing: [1-9][\d,]* conversations, \d+ MB of \d+ MB$/.test(label))).toBe(true);

  const sidebar = page.getByRole('navigation').first();
  await sidebar.getByRole('link', { name: last.title }).click();
  await expect(page.getByText('[Image not imported: file-service://file-399x2, 1024×768]', { exact: false })).toBeVisible();
  expect(llm.chatRequests()).toHaveLength(0);
});

test('a ChatGPT data export’s .zip, as downloaded, is imported from its conversations.json', async ({ page, llm }, testInfo) => {
  const conversations = [...syntheticConversations({ conversations: 60, messagesPerConversation: 20, textBytes: 800, seed: 7 })];
  const path = testInfo.outputPath('chatgpt-export.zip');
  const zip = makeZip([
    { path: 'chat.html', data: '<html><body>ChatGPT export</body></html>' },
    { path: 'conversations.json', data: `[${conversations.join(',')}]` },
    { path: 'file-59x2.png', data: new Uint8Array(20_000).fill(1), store: true },
  ]);
  await writeFile(path, zip);
  const last = JSON.parse(conversations.at(-1)!) as { title: string };

  await setUpEndpoint(page, llm);
  await page.getByRole('link', { name: 'Settings' }).click();
  const panel = page.getByRole('region', { name: 'Import conversations' });
  await panel.getByLabel('Import conversations').setInputFiles(path);
  await expect(panel.getByRole('status')).toContainText('Imported 60 conversations from the ChatGPT export, with ', { timeout: 30_000 });
  await page.getByRole('navigation').first().getByRole('link', { name: last.title }).click();
  await expect(page.getByText('[Image not imported: file-service://file-59x2, 1024×768]', { exact: false })).toBeVisible();
});
