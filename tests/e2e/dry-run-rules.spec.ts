import type { Page } from '@playwright/test';
import { messageText, type FakeLlm } from '../fake-llm/index.ts';
import { card, send, setUpEndpoint } from './app.ts';
import { expect, test } from './fixtures.ts';
import { expectNoSeriousViolations } from './page-checks.ts';

/** The scripted model: each message of the person's asks for this POST once, then says how it went. */
function scriptPosts(llm: FakeLlm, url: string) {
  let call = 0;
  llm.onRequest((request) => {
    const { messages } = request.body;
    const asked = messages.findLastIndex((m) => m.role === 'user' && !messageText(m).startsWith('Approval '));
    const result = messages.slice(asked).find((m) => m.role === 'tool');
    if (result) return { content: `Posted: ${/HTTP \d+/.exec(messageText(result))?.[0] ?? 'nothing'}.` };
    call += 1;
    return { toolCalls: [{ id: `call_post_${call}`, name: 'http_request', arguments: { method: 'POST', url } }] };
  });
}

async function newChat(page: Page, text: string) {
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, text);
}

async function openRules(page: Page) {
  await page.getByRole('link', { name: 'Settings' }).click();
  return page.getByRole('region', { name: 'Approval rules' });
}

/**
 * An MCP server changing a tool's definition is written as the hub writes it
 * (src/mcp/definition-change-events.ts): server-everything cannot change its
 * tools, so the event is put into the app's database from the page.
 */
async function recordToolChange(page: Page) {
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('pausepoint');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('auditEvents', 'readwrite');
          tx.objectStore('auditEvents').put({
            v: 1, id: 'ev-tool-changed', at: Date.now() - 60_000, kind: 'tool_definition_changed',
            mcp: { serverId: 'srv-1', serverUrl: 'https://mcp.example.com/mcp', serverName: 'Example tools', toolName: 'echo', definitionHash: 'b'.repeat(64) },
            previousHash: 'e'.repeat(64), pinnedHash: 'e'.repeat(64), changes: ['Description is now:', '    Echoes, and mails it'],
          });
          tx.oncomplete = () => (open.result.close(), resolve());
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
}

test('a dry-run rule decides nothing but records what it would have done; Make active lets the next call through; Disable, Enable', async ({ page, llm }) => {
  // Three conversations, three axe scans and the audit log's filters in one scenario: 42–47 s on two loaded cores.
  test.setTimeout(90_000);
  const url = `${llm.origin}/sink/items`;
  const host = new URL(llm.origin).host;
  scriptPosts(llm, url);
  await setUpEndpoint(page, llm);

  // One call decided by hand, for the preview to count.
  await send(page, 'post it');
  await card(page, `POST to ${host}`).getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Posted: HTTP 200.')).toBeVisible();

  // A rule made in Settings shows what it would have decided before it is saved.
  const rules = await openRules(page);
  const form = rules.getByRole('form', { name: 'Add a rule' });
  await form.getByLabel('Tool').fill('http_request');
  await form.getByLabel('Effect').selectOption('allow');
  await form.getByRole('checkbox', { name: 'Dry run' }).check();
  await expect(form.getByText('This rule would have decided 1 of your last 1 call.')).toBeVisible();
  await expect(form.getByRole('list', { name: 'Calls it would have decided' })).toContainText(`"method":"POST","url":"${url}"`);
  await expectNoSeriousViolations(page, '.approval-rules');
  await form.getByRole('button', { name: 'Add rule' }).click();
  const item = rules.getByRole('listitem').filter({ hasText: 'Allow http_request — everywhere' });
  await expect(item).toContainText('Dry run');
  await expect(item).toContainText('would have decided 0 calls');

  // Still asks, and the card says what the rule would have done.
  await newChat(page, 'post it again');
  const asked = card(page, `POST to ${host}`);
  await expect(asked.getByText('Rule “Allow http_request — everywhere” would allow this (dry run: it decided nothing).')).toBeVisible();
  await expectNoSeriousViolations(page, '.card');
  expect(llm.sinkHits('/sink/items')).toHaveLength(1);
  await asked.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Posted: HTTP 200.')).toBeVisible();
  expect(llm.sinkHits('/sink/items')).toHaveLength(2);

  // The audit log shows the dry run, the rule's creation and a changed tool beside the decisions.
  await recordToolChange(page);
  await page.getByRole('link', { name: 'Audit log' }).click();
  const entries = page.getByRole('list', { name: 'Audit entries' });
  await expect(entries.getByRole('article', { name: 'Dry run: would have allowed http_request' })).toBeVisible();
  await expect(entries.getByRole('article', { name: 'Rule created' })).toContainText('Allow http_request — everywhere');
  await expect(entries.getByRole('article', { name: 'Tool definition changed: echo' })).toContainText('Example tools');
  await page.getByLabel('Entry type').selectOption('rule_change');
  await expect(entries.getByRole('article')).toHaveCount(1);
  await page.getByLabel('Entry type').selectOption('');
  await page.getByLabel('Decided by').selectOption('person');
  await expect(entries.getByRole('article', { name: `POST to ${host}` })).toHaveCount(2);
  await expect(entries.getByRole('article', { name: 'Dry run: would have allowed http_request' })).toHaveCount(0);
  await expectNoSeriousViolations(page, '.audit-log');

  // Make active: the next identical call runs with no card.
  await openRules(page);
  await expect(item).toContainText('would have decided 1 call');
  await item.getByRole('button', { name: 'Make active' }).click();
  await expect(item).toContainText('Active');
  await expect(item.getByRole('button', { name: 'Make active' })).toHaveCount(0);
  await newChat(page, 'post it a third time');
  await expect(page.getByText('Posted: HTTP 200.')).toBeVisible();
  await expect(page.getByRole('region', { name: `POST to ${host}` })).toHaveCount(0);
  expect(llm.sinkHits('/sink/items')).toHaveLength(3);

  // Disable, then Enable.
  await openRules(page);
  await expect(item).toContainText('decided 1 call');
  await item.getByRole('button', { name: 'Disable' }).click();
  await expect(item).toContainText('Off');
  await item.getByRole('button', { name: 'Enable' }).click();
  await expect(item).toContainText('Active');
  await expect(item.getByRole('button', { name: 'Disable' })).toBeVisible();
});
