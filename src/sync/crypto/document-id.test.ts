import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveSyncKeys, NAME_INFO } from './data-key.ts';
import { documentId } from './document-id.ts';
import { KNOWN_DATA_KEY, nodeHkdf } from './testing/known-answer.ts';

describe('documentId', () => {
  it('is the known HMAC-SHA-256 of `kind\\nlocalId` under the name key, in lowercase hex', async () => {
    const keys = await deriveSyncKeys(KNOWN_DATA_KEY);
    const id = await documentId(keys, 'conversation', 'c-1');
    expect(id).toBe('99858dc3c008970a57d30a95a31f93487fc552ba148cae1505c23dac118343d6');
    expect(id).toBe(createHmac('sha256', nodeHkdf(KNOWN_DATA_KEY, NAME_INFO)).update('conversation\nc-1').digest('hex'));
  });

  it('is 64 hex digits for any local id, Unicode included, so it never starts with `_`', async () => {
    const keys = await deriveSyncKeys(KNOWN_DATA_KEY);
    for (const localId of ['', '_design/x', 'ünïcødé 🎉', 'x'.repeat(10_000)]) {
      const id = await documentId(keys, 'message', localId);
      expect(id).toMatch(/^[0-9a-f]{64}$/);
      expect(id).toBe(createHmac('sha256', nodeHkdf(KNOWN_DATA_KEY, NAME_INFO)).update(`message\n${localId}`, 'utf8').digest('hex'));
    }
  });

  it('differs between kinds, local ids and data keys, and is the same on every device with the same key', async () => {
    const keys = await deriveSyncKeys(KNOWN_DATA_KEY);
    const again = await deriveSyncKeys(new Uint8Array(KNOWN_DATA_KEY));
    const other = await deriveSyncKeys(KNOWN_DATA_KEY.map((byte) => byte ^ 0xff));
    const ids = [
      await documentId(keys, 'conversation', 'c-1'),
      await documentId(keys, 'message', 'c-1'),
      await documentId(keys, 'conversation', 'c-2'),
      await documentId(other, 'conversation', 'c-1'),
    ];
    expect(new Set(ids).size).toBe(4);
    expect(await documentId(again, 'conversation', 'c-1')).toBe(ids[0]);
  });

  it('refuses a kind with a newline, which would make two (kind, local id) pairs one message', async () => {
    const keys = await deriveSyncKeys(KNOWN_DATA_KEY);
    await expect(documentId(keys, 'a\nb', 'c')).rejects.toThrow(RangeError);
  });
});
