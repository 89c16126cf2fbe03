import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { once } from 'node:events';
import { syntheticBackupParts } from '../../src/backup/testing/synthetic-backup.ts';
import { recordProgressLabels, setUpEndpoint } from './app.ts';
import { expect, test } from './fixtures.ts';

/**
 * Issue 35, point 1: a backup past the old 50 MB cap (60 conversations, each
 * with an attached file, a gated call that ran, its card and ledger entry) is
 * restored through Settings › Backup and storage, read as a stream by the
 * import worker: its progress shows the records checked and the megabytes
 * read, then the records written, and its conversations appear.
 */
test('a backup over 50 MB is restored with progress, and its conversations appear', async ({ page, llm }, testInfo) => {
  const spec = { conversations: 60, messagesPerConversation: 8, textBytes: 300, attachmentBytes: 700_000 };
  const path = testInfo.outputPath('pausepoint-backup.json');
  const out = createWriteStream(path);
  for (const part of syntheticBackupParts(spec)) if (!out.write(part)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
  expect((await stat(path)).size).toBeGreaterThan(50_000_000);

  await setUpEndpoint(page, llm);
  await page.getByRole('link', { name: 'Settings' }).click();
  const panel = page.getByRole('region', { name: 'Backup and storage' });
  await expect(panel.getByText(/A backup of any size is read as a stream/)).toBeVisible();
  const progressSeen = await recordProgressLabels(panel);
  await panel.getByLabel('Restore from backup file').setInputFiles(path);
  await expect(panel.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await expect(panel.getByRole('status')).toHaveText('Restored 60 conversations (480 messages, 60 approvals).', { timeout: 60_000 });
  await expect(panel.getByRole('button', { name: 'Cancel' })).toHaveCount(0);

  const seen = await progressSeen();
  expect(seen.some((label) => /^Checking the backup: [1-9][\d,]* records, \d+\.\d MB of \d+\.\d MB$/.test(label))).toBe(true);
  expect(seen.some((label) => /^Restoring: [1-9][\d,]* of [\d,]+ records written$/.test(label))).toBe(true);

  await page.goto('/');
  await expect(page.getByRole('link', { name: /Conversation 60/ }).first()).toBeAttached();
});
