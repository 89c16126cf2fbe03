import { createPublicKey, verify } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { canonicalJson } from '../../src/audit/canonical-json.ts';
import { checkJsonSchema } from '../../src/audit/testing/json-schema-check.ts';
import { verifyAuditFile } from '../../src/audit/verify-audit-file.ts';
import { card, send, setUpEndpoint, waitCall } from './app.ts';
import { API_KEY, expect, test } from './fixtures.ts';

test('Export audit log downloads a file that validates against the schema and verifies, its decision signed in Chromium by this device (Node verifies it); a changed entry is named', async ({ page, llm }, testInfo) => {
  llm.enqueue(
    waitCall({ title: 'Refund the order', description: 'Refund **$35** to card ending 4242.', payload: { amount: 35 } }),
    { content: 'Refunded.' },
  );
  await setUpEndpoint(page, llm);
  await send(page, 'refund order 1001');
  const refund = card(page, 'Refund the order');
  await refund.getByLabel('Payload').fill('{"amount": 30}');
  await refund.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Refunded.')).toBeVisible();

  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  await expect(page.getByText('Refund the order').first()).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export audit log' }).click()]);
  const file = await download.path();
  const text = await readFile(file, 'utf8');

  expect(text).not.toContain(API_KEY);
  const schema = JSON.parse(await readFile('docs/audit-log.schema.json', 'utf8'));
  const exported = JSON.parse(text);
  expect(checkJsonSchema(schema, exported)).toEqual([]);
  expect(exported.entries).toHaveLength(1);
  expect(exported.entries[0]).toMatchObject({ title: 'Refund the order', status: 'resolved', resolution: 'approve', payload: { amount: 35 }, edited_payload: { amount: 30 } });
  expect(await verifyAuditFile(text)).toMatchObject({ ok: true, version: 4, signatures: { verified: 1, failed: [], unlisted: [], unsigned: [] } });

  // Signed in Chromium by this device's key as the person pressed Approve; Node verifies it with the exported JWK alone.
  const { device_signature: signature } = exported.entries[0];
  expect(signature).toMatchObject({ alg: 'ES256', signed: { card_id: exported.entries[0].id, status: 'resolved', resolution: 'approve', by: 'person', edited_payload: { amount: 30 } } });
  expect(signature.signed.view_hash).toMatch(/^[0-9a-f]{64}$/);
  const device = exported.devices.find((d: { key_id: string }) => d.key_id === signature.key_id);
  const key = createPublicKey({ key: device.public_key, format: 'jwk' });
  expect(verify('sha256', Buffer.from(canonicalJson(signature.signed)), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature.value, 'base64url'))).toBe(true);

  await page.getByLabel('Audit file to verify').setInputFiles(file);
  await expect(page.getByRole('status').filter({ hasText: 'Verified: 1 entry' })).toContainText('Signatures: 1 decision signed by a device this file lists.');

  const tampered = testInfo.outputPath('tampered.json');
  const changed = text.replace('"edited_payload":{"amount":30}', '"edited_payload":{"amount":3000}');
  expect(changed).not.toBe(text);
  await writeFile(tampered, changed);
  await page.getByLabel('Audit file to verify').setInputFiles(tampered);
  await expect(page.getByRole('alert')).toContainText('does not match its hash');
});
