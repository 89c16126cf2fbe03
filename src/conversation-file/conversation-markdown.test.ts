import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConversationFile } from './conversation-file-format.ts';
import { conversationMarkdown } from './conversation-markdown.ts';

const sample = ConversationFile.parse(JSON.parse(readFileSync(new URL('../../tests/fixtures/conversation/v1-sample.json', import.meta.url), 'utf8')));

describe('Export as Markdown', () => {
  const markdown = conversationMarkdown(sample);

  it('has the title, the conversation’s instructions, and each message under who wrote it, in order', () => {
    expect(markdown.startsWith('# Invoices for March\n\nExported from Pausepoint on 2026-12-02.\n\n**Instructions for this conversation:**\n\n> Amounts in EUR.\n')).toBe(true);
    const headings = markdown.split('\n').filter((line) => line.startsWith('## '));
    expect(headings).toEqual(['## You', '## Assistant', '## You (decision)', '## Tool result: `send_invoice` (done)', '## Assistant']);
  });

  it('shows each call with its arguments and its card with what was decided', () => {
    expect(markdown).toContain('Tool call `send_invoice`:\n\n```json\n{\n  "to": "ada@example.com",\n  "amount": 120\n}\n```');
    expect(markdown).toContain('### Approval card: Send the invoice? — decided: approve');
    expect(markdown).toContain('### Approval card: Send 80 EUR to Bob? — pending');
    expect(markdown).toContain('> The connection dropped once.');
  });

  it('writes the current version only, and says that the JSON export keeps the others', () => {
    const versions = { current: 'b1', rootActive: 0, branches: [{ id: 'b1', parent: '', from: 1, active: 1, createdAt: 1 }] };
    const last = sample.messages.at(-1)!;
    const again = { ...last, id: 'again', seq: last.seq + 1, role: 'assistant' as const, content: 'Regenerated answer.', toolCalls: [], turnIndex: 9, status: 'complete' as const, branch: 'b1' };
    const file = { ...sample, conversation: { ...sample.conversation, versions }, messages: [...sample.messages, again] };
    const written = conversationMarkdown(file);
    expect(written.split('\n').filter((line) => line.startsWith('## '))).toEqual(['## You', '## Assistant']);
    expect(written).toContain('Regenerated answer.');
    expect(written).not.toContain('Sending it.');
    // The first version's cards went with its calls: none of them is written as another approval.
    expect(written).not.toContain('Approval card');
    expect(written).toContain('This is the version shown in Pausepoint; Export as JSON keeps every version.');
  });

  it('fences a tool’s text so its backticks cannot close the fence', () => {
    expect(markdown).toContain('````\nSent ```120 EUR```.\n````');
  });
});
