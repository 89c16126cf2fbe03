import type { Page } from '@playwright/test';
import { card, send, setUpEndpointThroughUi, waitCall } from './app.ts';
import { expect, test } from './fixtures.ts';

/**
 * Moves every pending card's expiry into the past, straight in IndexedDB: what
 * a card looks like to a tab opened after its time ran out while no tab was open.
 */
async function letPendingCardsFallDue(page: Page) {
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('pausepoint');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction('pausePoints', 'readwrite');
          const store = tx.objectStore('pausePoints');
          const all = store.getAll();
          all.onsuccess = () => {
            for (const pause of all.result as { status: string; expiresAt: number | null }[]) {
              if (pause.status === 'pending') store.put({ ...pause, expiresAt: Date.now() - 1_000 });
            }
          };
          tx.oncomplete = () => {
            db.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
}

test('a card whose expiry passed while the app was closed shows expired as soon as the app opens', async ({ page, llm }) => {
  llm.enqueue(waitCall({ title: 'Book the room', description: 'Books room 4 for Friday, 10:00.' }), { content: 'The request expired, so I did not book.' });
  await setUpEndpointThroughUi(page, llm, { expiry: 'After 15 minutes' });
  await send(page, 'book the room');
  const approval = card(page, 'Book the room');
  await expect(approval.getByText(/^Expires/)).toBeVisible();

  await letPendingCardsFallDue(page);
  await page.reload();

  // At start, not at the worker's first periodic sweep 15 s later.
  await expect(approval.getByText('Expired', { exact: true })).toBeVisible({ timeout: 5_000 });
  await expect(approval.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(page.getByText('The request expired, so I did not book.')).toBeVisible({ timeout: 5_000 });
  const [, second] = await llm.waitForChatRequests(2);
  expect(second!.body.messages.at(-1)).toEqual({ role: 'user', content: 'Approval approval: expired - no decision was made before it expired' });
});
