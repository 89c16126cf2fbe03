import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { verifyAuditFile } from '../../src/audit/verify-audit-file.ts';
import { messageText, type FakeLlm } from '../fake-llm/index.ts';
import { card, send, setUpEndpoint } from './app.ts';
import { expect, test } from './fixtures.ts';

/** The scripted model: each message of the person's asks for this POST once, then says how it went. */
function scriptPosts(llm: FakeLlm, url: string) {
  let call = 0;
  llm.onRequest((request) => {
    const { messages } = request.body;
    // The person's latest message; the synthetic "Approval …" decision messages do not count.
    const asked = messages.findLastIndex((m) => m.role === 'user' && !messageText(m).startsWith('Approval '));
    const result = messages.slice(asked).find((m) => m.role === 'tool');
    if (result) return { content: /refuses this call/.test(messageText(result)) ? 'Refused by a rule.' : `Posted: ${/HTTP \d+/.exec(messageText(result))?.[0] ?? 'nothing'}.` };
    call += 1;
    return { toolCalls: [{ id: `call_post_${call}`, name: 'http_request', arguments: { method: 'POST', url } }] };
  });
}

function toolResults(llm: FakeLlm): string[] {
  return llm.chatRequests().flatMap((r) => r.body.messages.filter((m) => m.role === 'tool').map(messageText));
}

async function openSettings(page: Page) {
  await page.getByRole('link', { name: 'Settings' }).click();
  return page.getByRole('region', { name: 'Approval rules' });
}

async function newChat(page: Page, text: string) {
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, text);
}

test('Always allow on a POST card: the same call elsewhere runs with no card, and the rule is in Settings', async ({ page, llm }) => {
  const url = `${llm.origin}/sink/items`;
  const host = new URL(llm.origin).host;
  scriptPosts(llm, url);
  await setUpEndpoint(page, llm);

  await send(page, 'post it');
  const gate = card(page, `POST to ${host}`);
  await expect(gate).toBeVisible();
  await expect(gate.getByText(`What this allows: Allow http_request when method is POST and url is on ${llm.origin}`)).toBeVisible();
  await expect(gate.getByRole('button', { name: 'Approve' })).toBeVisible();
  await gate.getByRole('button', { name: 'Always allow' }).click();
  await expect(page.getByText('Posted: HTTP 200.')).toBeVisible();
  expect(llm.sinkHits('/sink/items')).toHaveLength(1);

  await newChat(page, 'post it again');
  await expect(page.getByText('Posted: HTTP 200.')).toBeVisible();
  await expect(page.getByRole('region', { name: `POST to ${host}` })).toHaveCount(0);
  expect(llm.sinkHits('/sink/items')).toHaveLength(2);

  const rules = await openSettings(page);
  const item = rules.getByRole('listitem').filter({ hasText: 'http_request' });
  await expect(item).toContainText(`method is POST and url is on ${llm.origin}`);
  await expect(item).toContainText('everywhere');

  // Disabled, the rule stays listed and lets nothing through: the same call asks again.
  await item.getByRole('button', { name: 'Disable' }).click();
  await expect(item).toContainText('Off');
  await expect(item.getByRole('button', { name: 'Enable' })).toBeVisible();
  await newChat(page, 'post it once more');
  const asked = card(page, `POST to ${host}`);
  await expect(asked).toBeVisible();
  expect(llm.sinkHits('/sink/items')).toHaveLength(2);
  await asked.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Posted: HTTP 200.')).toBeVisible();
  expect(llm.sinkHits('/sink/items')).toHaveLength(3);
});

test('Allow in this conversation lets the call through there, not in another conversation', async ({ page, llm }) => {
  const url = `${llm.origin}/sink/items`;
  const host = new URL(llm.origin).host;
  scriptPosts(llm, url);
  await setUpEndpoint(page, llm);

  await send(page, 'post it');
  await card(page, `POST to ${host}`).getByRole('button', { name: 'Allow in this conversation' }).click();
  await expect(page.getByText('Posted: HTTP 200.')).toBeVisible();
  expect(llm.sinkHits('/sink/items')).toHaveLength(1);

  // The same conversation: no card this time.
  await send(page, 'and again here');
  await expect(page.getByText('Posted: HTTP 200.')).toHaveCount(2);
  expect(llm.sinkHits('/sink/items')).toHaveLength(2);

  // Another conversation: the card is back, and nothing was sent.
  await newChat(page, 'post it elsewhere');
  await expect(card(page, `POST to ${host}`)).toBeVisible();
  expect(llm.sinkHits('/sink/items')).toHaveLength(2);
});

test('a deny rule from Settings refuses the call, and the model is told so', async ({ page, llm }) => {
  const url = `${llm.origin}/sink/items`;
  scriptPosts(llm, url);
  await setUpEndpoint(page, llm);

  const rules = await openSettings(page);
  await rules.getByLabel('Tool').fill('http_request');
  await rules.getByLabel('Effect').selectOption('deny');
  await rules.getByRole('button', { name: 'Add rule' }).click();
  await expect(rules.getByRole('listitem').filter({ hasText: 'Deny http_request' })).toBeVisible();

  await newChat(page, 'post it');
  await expect(page.getByText('Refused by a rule.')).toBeVisible();
  expect(toolResults(llm).some((result) => result.includes('refuses this call'))).toBe(true);
  expect(llm.sinkHits()).toHaveLength(0);
});

test('an irreversible call offers “Always allow” only once Settings turns it on', async ({ page, llm }) => {
  const host = new URL(llm.origin).host;
  let call = 0;
  llm.onRequest((request) => {
    const last = request.body.messages.at(-1);
    if (last?.role === 'tool' || (last?.role === 'user' && messageText(last).startsWith('Approval '))) return { content: 'Done.' };
    call += 1;
    return { toolCalls: [{ id: `call_delete_${call}`, name: 'http_request', arguments: { method: 'DELETE', url: `${llm.origin}/sink/items/1` } }] };
  });
  await setUpEndpoint(page, llm);

  await send(page, 'delete it');
  const gate = card(page, `DELETE to ${host}`);
  await expect(gate.getByRole('button', { name: 'Allow in this conversation' })).toBeVisible();
  await expect(gate.getByRole('button', { name: 'Always allow' })).toHaveCount(0);
  await expect(gate.getByText('What this allows:')).toBeVisible();
  await expect(gate.getByText('What this allows:')).not.toContainText('everywhere');

  const rules = await openSettings(page);
  const offer = rules.getByRole('checkbox', { name: 'Offer “Always allow” for irreversible actions' });
  await expect(offer).not.toBeChecked();
  await offer.check();
  await expect(offer).toBeChecked();

  await newChat(page, 'delete it, again');
  await expect(card(page, `DELETE to ${host}`).getByRole('button', { name: 'Always allow' })).toBeVisible();
  expect(llm.sinkHits()).toHaveLength(0);
});

test('Always allow, then the identical call in a new conversation: both are in the exported audit log, with the rule that made the second', async ({ page, llm }) => {
  const url = `${llm.origin}/sink/items`;
  const host = new URL(llm.origin).host;
  scriptPosts(llm, url);
  await setUpEndpoint(page, llm);

  await send(page, 'post it');
  await card(page, `POST to ${host}`).getByRole('button', { name: 'Always allow' }).click();
  await expect(page.getByText('Posted: HTTP 200.')).toBeVisible();
  await newChat(page, 'post it again');
  await expect(page.getByText('Posted: HTTP 200.')).toBeVisible();
  await expect(page.getByRole('region', { name: `POST to ${host}` })).toHaveCount(0);
  expect(llm.sinkHits('/sink/items')).toHaveLength(2);

  await page.getByRole('link', { name: 'Audit log' }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export audit log' }).click()]);
  const text = await readFile(await download.path(), 'utf8');
  expect(await verifyAuditFile(text)).toMatchObject({ ok: true, version: 4 });
  const { entries } = JSON.parse(text) as { entries: Record<string, unknown>[] };

  const ruleText = `Allow http_request when method is POST and url is on ${llm.origin} — everywhere`;
  const created = entries.find((entry) => entry.entry_type === 'rule_created');
  expect(created).toMatchObject({ rule: { effect: 'allow', tool: 'http_request', text: ruleText, source: 'card', scope: 'everywhere', enabled: true } });
  const ruleId = (created!.rule as { id: string }).id;
  expect(created).toMatchObject({ decided_by: { tab_id: expect.any(String), label: expect.any(String) } });

  const decisions = entries.filter((entry) => entry.entry_type === 'decision');
  expect(decisions).toHaveLength(2);
  const [byPerson, byRule] = decisions;
  expect(byPerson).toMatchObject({ origin: 'gate', decision_origin: 'human', resolution: 'approve', tool_name: 'http_request', definition_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
  expect(byRule).toMatchObject({
    origin: 'rule', decision_origin: 'rule', resolution: 'approve', decided_by: null, tool_name: 'http_request',
    rule: { id: ruleId, effect: 'allow', text: ruleText },
    payload: { method: 'POST', url }, ledger: { status: 'succeeded' },
    definition_hash: (byPerson as { definition_hash: string }).definition_hash,
  });
  // The rule was made by the first card's decision, before the call it decided.
  expect(entries.indexOf(created!)).toBeLessThan(entries.indexOf(byRule!));
});
