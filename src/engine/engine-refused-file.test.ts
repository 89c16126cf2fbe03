import { describe, expect, it } from 'vitest';
import type { AttachmentContent } from './attachments-port.ts';
import { CallerError } from './errors.ts';
import type { AttachmentRef } from './records/index.ts';
import { harness, state } from './testing/harness.ts';
import { MemoryAttachments } from './testing/memory-attachments.ts';
import { modelError } from './testing/scripted-model.ts';

const sha = 'b'.repeat(64);
const photo: AttachmentRef = { id: 'f-photo', name: 'holiday.png', type: 'image/png', size: 7_900_000, sha256: sha, kind: 'image' };
const notes: AttachmentRef = { id: 'f-notes', name: 'notes.md', type: 'text/markdown', size: 5, sha256: sha, kind: 'text' };
const contents: [string, AttachmentContent][] = [
  ['f-photo', { kind: 'image', dataUrl: 'data:image/png;base64,AAAA' }],
  ['f-notes', { kind: 'text', text: 'hello' }],
];
const refusal = () => modelError('bad_request', 'The endpoint rejected the request (400): image exceeds 5 MB maximum.', 400);
/** Whether a request's messages carry an image part. */
const hasImage = (messages: readonly { content?: unknown }[]) => JSON.stringify(messages).includes('"image_url"');

function setUp(script: Parameters<typeof harness>[0]) {
  const attachments = new MemoryAttachments();
  for (const [id, content] of contents) attachments.put(id, content);
  return harness(script, { attachments });
}

describe('an image the endpoint refuses does not break the conversation (issue 32, point 4)', () => {
  it('the error names the message whose files went with the refused request; Edit without the image sends none, and the run succeeds', async () => {
    const h = setUp([{ fail: refusal() }, { text: 'Noted, without the photo.' }]);
    const { conversationId } = await h.engine.send(null, 'Look at this', [photo, notes]);
    await h.engine.whenIdle();
    const [asked] = await h.storage.listMessages(conversationId);
    expect(await state(h, conversationId)).toEqual({
      kind: 'error',
      code: 'bad_request',
      message: 'The endpoint rejected the request (400): image exceeds 5 MB maximum.',
      retryable: true,
      withFiles: [asked!.id],
    });
    expect(hasImage(h.model.requests[0]!.messages)).toBe(true);

    // Edit → Remove the image → Send: a new version of the message, with the text file only.
    await h.engine.editMessage(conversationId, asked!.id, 'Look at this', [notes.id]);
    await h.engine.whenIdle();
    expect(await state(h, conversationId)).toEqual({ kind: 'idle' });
    const second = h.model.requests[1]!.messages;
    expect(hasImage(second)).toBe(false);
    expect(JSON.stringify(second)).toContain('notes.md');
    const stored = await h.storage.listMessages(conversationId);
    // Append-only: the first message still holds its image, in the earlier version.
    expect(stored.find((m) => m.id === asked!.id)).toMatchObject({ attachments: [photo, notes] });
    expect(stored.filter((m) => m.role === 'user').at(-1)).toMatchObject({ content: 'Look at this', attachments: [notes] });
    expect(stored.at(-1)).toMatchObject({ role: 'assistant', content: 'Noted, without the photo.' });
  });

  it('without the edit, every later request carries the image again and is refused again, as before', async () => {
    const h = setUp([{ fail: refusal() }, { fail: refusal() }]);
    const { conversationId } = await h.engine.send(null, 'Look at this', [photo]);
    await h.engine.whenIdle();
    await h.engine.send(conversationId, 'And now?');
    await h.engine.whenIdle();
    expect(hasImage(h.model.requests[1]!.messages)).toBe(true);
    const [first] = await h.storage.listMessages(conversationId);
    expect(await state(h, conversationId)).toMatchObject({ kind: 'error', withFiles: [first!.id] });
  });

  it('names no message for a refusal of a request without files, nor for a 404 (a wrong model or address)', async () => {
    const h = setUp([{ fail: refusal() }, { fail: modelError('bad_request', 'The endpoint rejected the request (404): no such model.', 404) }]);
    const { conversationId } = await h.engine.send(null, 'plain words');
    await h.engine.whenIdle();
    expect(await state(h, conversationId)).not.toHaveProperty('withFiles');
    const other = await h.engine.send(null, 'Look', [photo]);
    await h.engine.whenIdle();
    expect(await state(h, other.conversationId)).not.toHaveProperty('withFiles');
  });

  it('an edit keeps every file unless told which, ignores ids the message does not have, and needs words or a file', async () => {
    const h = setUp([{ fail: refusal() }, { text: 'ok' }]);
    const { conversationId } = await h.engine.send(null, '', [photo]);
    await h.engine.whenIdle();
    const [asked] = await h.storage.listMessages(conversationId);
    await expect(h.engine.editMessage(conversationId, asked!.id, '  ', ['f-elsewhere'])).rejects.toThrow(CallerError);
    await h.engine.editMessage(conversationId, asked!.id, 'Only words now', ['f-elsewhere']);
    await h.engine.whenIdle();
    expect((await h.storage.listMessages(conversationId)).filter((m) => m.role === 'user').at(-1)).not.toHaveProperty('attachments');
  });
});
