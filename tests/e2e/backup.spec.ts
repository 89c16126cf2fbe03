import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { join } from 'node:path';
import { card, lastToolResult, send, setUpEndpoint, waitCall } from './app.ts';
import { API_KEY, expect, test } from './fixtures.ts';

const TABLES = ['conversations', 'messages', 'pausePoints', 'ledger', 'notes', 'approvalRules'] as const;

/** Every row of every table, read straight from IndexedDB: what "identical data" is judged on. */
function snapshot(page: Page) {
  return page.evaluate(async (tables) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('pausepoint');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const out: Record<string, unknown[]> = {};
    for (const table of tables) {
      out[table] = await new Promise<unknown[]>((resolve, reject) => {
        const request = db.transaction(table).objectStore(table).getAll();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    }
    db.close();
    return out;
  }, [...TABLES]);
}

function wipe(page: Page) {
  return page.evaluate(async (tables) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('pausepoint');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const tx = db.transaction([...tables], 'readwrite');
    for (const table of tables) tx.objectStore(table).clear();
    await new Promise((resolve) => (tx.oncomplete = resolve));
    db.close();
  }, [...TABLES]);
}

async function openBackupPanel(page: Page) {
  await page.getByRole('link', { name: 'Settings' }).click();
  const panel = page.getByRole('region', { name: 'Backup and storage' });
  await expect(panel).toBeVisible();
  return panel;
}

test('backup, wipe, restore gives identical data; the backup holds no API key', async ({ page, llm }) => {
  llm.enqueue(
    waitCall({ title: 'Archive the project', description: 'Moves **58** files.', payload: { project: 'apollo' } }),
    { content: 'Archived.' },
  );
  await setUpEndpoint(page, llm);
  await send(page, 'archive apollo');
  await card(page, 'Archive the project').getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Archived.')).toBeVisible();
  const before = await snapshot(page);
  expect(before.pausePoints).toHaveLength(1);

  const panel = await openBackupPanel(page);
  const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Backup', exact: true }).click()]);
  const file = await download.path();
  const text = await readFile(file, 'utf8');
  expect(text).not.toContain(API_KEY);
  expect(JSON.parse(text)).toMatchObject({ format: 'pausepoint.backup', version: 3 });
  // What a restore brings back (the inert path, src/inert/): the same, but a card decided before the backup is marked as
  // decided elsewhere, and each answer's usage is history, counted toward no limit here.
  const restored = {
    ...before,
    pausePoints: (before.pausePoints ?? []).map((p) => ({ ...(p as object), restored: true })),
    messages: (before.messages ?? []).map((m) => ((m as { usage?: unknown }).usage ? { ...(m as object), fromFile: true } : m)),
  };

  await wipe(page);
  expect((await snapshot(page)).conversations).toEqual([]);
  await page.reload();
  const restorePanel = await openBackupPanel(page);
  await restorePanel.getByLabel('Restore from backup file').setInputFiles(file);
  await expect(restorePanel.getByRole('status')).toContainText(/Restored/);
  expect(await snapshot(page)).toEqual(restored);

  // The same file again changes nothing.
  await restorePanel.getByLabel('Restore from backup file').setInputFiles(file);
  await expect(restorePanel.getByRole('status')).toContainText(/Nothing to restore/);
  expect(await snapshot(page)).toEqual(restored);
});

test('a corrupt backup is refused with a clear message and nothing changes', async ({ page, llm }) => {
  llm.enqueue({ content: 'Hello there.' });
  await setUpEndpoint(page, llm);
  await send(page, 'hi');
  await expect(page.getByText('Hello there.')).toBeVisible();
  const before = await snapshot(page);

  const panel = await openBackupPanel(page);
  const corrupt = { name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"pausepoint.backup","version":1,"data":{"conversations":[{"id":') };
  await panel.getByLabel('Restore from backup file').setInputFiles(corrupt);
  await expect(panel.getByRole('alert')).toBeVisible();
  expect(await snapshot(page)).toEqual(before);

  const future = { name: 'future.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ format: 'pausepoint.backup', version: 99, data: {} })) };
  await panel.getByLabel('Restore from backup file').setInputFiles(future);
  await expect(panel.getByRole('alert')).toContainText(/version/i);
  expect(await snapshot(page)).toEqual(before);
});

test('a restored backup with a running conversation and an approved, never executed POST runs nothing until the user acts', async ({ page, llm }) => {
  // The crafted fixture, its POST pointed at the fake server's sink so an execution would be counted.
  const target = `${llm.origin}/sink/transfers`;
  const crafted = (await readFile(join(import.meta.dirname, '../fixtures/backup/crafted-running-approved-call.json'), 'utf8')).replaceAll('https://bank.example/transfers', target);
  await setUpEndpoint(page, llm);
  const requestsBefore = llm.requests.length;

  const panel = await openBackupPanel(page);
  await panel.getByLabel('Restore from backup file').setInputFiles({ name: 'crafted.json', mimeType: 'application/json', buffer: Buffer.from(crafted) });
  await expect(panel.getByRole('status')).toContainText('1 conversation was working when the backup was made; nothing runs in it until you press Continue.');
  await expect(panel.getByRole('status')).toContainText('1 allow rule came back switched off');

  // The worker sweeps for active conversations every 3 s, and once when a tab opens: give it both.
  await page.waitForTimeout(4_000);
  await page.reload();
  await page.getByRole('navigation').first().getByRole('link', { name: 'Pay the supplier' }).click();
  await expect(page.getByText(/^Interrupted: Restored from a backup made while it was working\. Nothing has run here since; press Continue to go on\.$/)).toBeVisible();
  await page.waitForTimeout(4_000);
  expect(llm.requests.slice(requestsBefore)).toEqual([]);

  // Continue: the call came from a file, so it is answered "not run" (src/inert/): no card, nothing sent, the model told.
  llm.enqueue({ content: 'Nothing was paid: that call came from the backup.' });
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Nothing was paid: that call came from the backup.')).toBeVisible();
  const [request] = await llm.waitForChatRequests(1);
  expect(lastToolResult(request!.body)).toContain('Not run: came from a file.');
  await expect(page.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
  expect(llm.sinkHits()).toHaveLength(0);
  expect(llm.chatRequests()).toHaveLength(1);
});

test('point 1: a restored started ledger entry never runs: its call comes back answered "not run", and no card asks', async ({ page, llm }) => {
  // The crafted fixture's two reads (ledger: started), pointed at the fake server's sink so a request would be counted.
  const sink = `${llm.origin}/sink/collect`;
  const crafted = (await readFile(join(import.meta.dirname, '../fixtures/backup/crafted-started-read.json'), 'utf8')).replaceAll('https://evil.example/collect', sink);
  await setUpEndpoint(page, llm);

  const panel = await openBackupPanel(page);
  await panel.getByLabel('Restore from backup file').setInputFiles({ name: 'crafted.json', mimeType: 'application/json', buffer: Buffer.from(crafted) });
  await expect(panel.getByRole('status')).toContainText('Restored 2 conversations');

  // Continue: nothing sent, nothing asks; the model reads that the call came from a file.
  llm.enqueue({ content: 'I did not read it.' });
  await page.getByRole('navigation').first().getByRole('link', { name: 'Look something up' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('I did not read it.')).toBeVisible();
  const [request] = await llm.waitForChatRequests(1);
  expect(lastToolResult(request!.body)).toContain('Not run: came from a file.');
  await expect(page.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);

  // The other conversation's card came back expired: nothing there to approve, and nothing sent.
  await page.getByRole('navigation').first().getByRole('link', { name: 'Ask, then read' }).click();
  await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
  expect(llm.sinkHits()).toHaveLength(0);
});
