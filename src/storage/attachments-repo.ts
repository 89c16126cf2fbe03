import type { AttachmentContent, AttachmentsPort } from '../engine/attachments-port.ts';
import type { AttachmentRef } from '../engine/records/index.ts';
import { toBase64 } from '../common/base64.ts';
import type { PausepointDb } from './db.ts';
import { toStorageError } from './storage-error.ts';
import type { StoredAttachment } from './stored-attachment.ts';

/**
 * Stores attached files, all or none (one transaction). A full quota comes
 * back as a StorageError `quota_exceeded` and leaves nothing behind; the
 * caller keeps the files and the text it was about to send.
 */
export async function putAttachments(db: PausepointDb, rows: readonly StoredAttachment[]): Promise<void> {
  try {
    await db.transaction('rw', db.attachments, () => db.attachments.bulkPut([...rows]));
  } catch (error) {
    throw toStorageError(error);
  }
}

export async function deleteAttachments(db: PausepointDb, ids: readonly string[]): Promise<void> {
  await db.attachments.bulkDelete([...ids]);
}

export function readAttachment(db: PausepointDb, id: string): Promise<StoredAttachment | undefined> {
  return db.attachments.get(id);
}

/** Characters of data: URLs kept between model calls: each step of a run sends the same images again. */
export const DATA_URL_CACHE_CHARS = 40_000_000;

/**
 * The engine's AttachmentsPort over the `attachments` table. An image's
 * data: URL is kept per SHA-256 in a bounded map (least recently used out
 * first), so the steps of a run do not read and encode the same bytes again;
 * text is stored extracted and read as it is.
 */
export class DexieAttachments implements AttachmentsPort {
  readonly #dataUrls = new Map<string, string>();
  #cachedChars = 0;

  constructor(
    private readonly db: PausepointDb,
    private readonly limit = DATA_URL_CACHE_CHARS,
  ) {}

  async read(refs: readonly AttachmentRef[]): Promise<ReadonlyMap<string, AttachmentContent>> {
    const out = new Map<string, AttachmentContent>();
    const toRead = refs.filter((ref) => ref.kind !== 'image' || !this.#cached(ref));
    const rows = toRead.length > 0 ? await this.db.attachments.bulkGet(toRead.map((ref) => ref.id)) : [];
    const byId = new Map(rows.flatMap((row) => (row ? [[row.id, row] as const] : [])));
    for (const ref of refs) {
      const cached = ref.kind === 'image' ? this.#cached(ref) : undefined;
      if (cached) {
        out.set(ref.id, { kind: 'image', dataUrl: cached });
        continue;
      }
      const row = byId.get(ref.id);
      // A row whose bytes are not the ref's (another file under the same id) counts as missing.
      if (!row || row.sha256 !== ref.sha256) continue;
      if (row.kind === 'image') out.set(ref.id, { kind: 'image', dataUrl: this.#remember(row.sha256, `data:${row.type};base64,${toBase64(new Uint8Array(await row.blob.arrayBuffer()))}`) });
      else if (row.text !== undefined) out.set(ref.id, { kind: 'text', text: row.text });
    }
    return out;
  }

  #cached(ref: AttachmentRef): string | undefined {
    const url = this.#dataUrls.get(ref.sha256);
    if (url === undefined || !url.startsWith(`data:${ref.type};`)) return undefined;
    this.#dataUrls.delete(ref.sha256);
    this.#dataUrls.set(ref.sha256, url);
    return url;
  }

  #remember(sha256: string, url: string): string {
    if (url.length > this.limit) return url;
    const old = this.#dataUrls.get(sha256);
    if (old !== undefined) this.#cachedChars -= old.length;
    this.#dataUrls.delete(sha256);
    this.#dataUrls.set(sha256, url);
    this.#cachedChars += url.length;
    for (const [key, value] of this.#dataUrls) {
      if (this.#cachedChars <= this.limit) break;
      this.#dataUrls.delete(key);
      this.#cachedChars -= value.length;
    }
    return url;
  }

  /** Characters held (for tests of the bound). */
  get cachedChars(): number {
    return this.#cachedChars;
  }
}
