import type { SyncKeys } from './crypto/data-key.ts';
import { documentId } from './crypto/document-id.ts';
import { openDocument, sealDocument } from './crypto/envelope.ts';
import { SyncDocument, type SyncKind } from './sync-document.ts';

/** A document as it goes to the server: an opaque id and one envelope, nothing else. */
export type SealedBody = { _id: string; e: unknown };

/** Why a document from the server was not applied: it is skipped, counted and shown, never applied. */
export class UnreadableDocument extends Error {
  override readonly name = 'UnreadableDocument';
  constructor(
    readonly docId: string,
    /** `superseded`: sealed under a data key a rotation replaced, so written before it (or by a removed device): never applied, not counted. */
    readonly reason: 'decrypt' | 'schema' | 'misplaced' | 'superseded',
  ) {
    super(`The synced document ${docId} could not be read (${reason}); it was skipped.`);
  }
}

/**
 * The records of this device, sealed for the server and opened from it, under
 * the data key. A document's id is the HMAC of its kind and local id, and its
 * ciphertext is bound to that id and the database name, so the server can
 * neither read a document, nor forge one, nor pass one off as another: an
 * envelope moved to another id fails to open, and an opened document whose
 * own kind and id do not hash to the id it was found under is refused.
 */
export class SealedDocuments {
  constructor(
    private readonly keys: SyncKeys,
    readonly database: string,
    /** The keys rotations replaced, newest first: only to recognise what was sealed under them. */
    private readonly previous: readonly SyncKeys[] = [],
  ) {}

  idOf(kind: SyncKind, localId: string): Promise<string> {
    return documentId(this.keys, kind, localId);
  }

  async seal(doc: SyncDocument): Promise<SealedBody> {
    const docId = await this.idOf(doc.kind, doc.id);
    return { _id: docId, e: await sealDocument(this.keys, { database: this.database, docId }, doc) };
  }

  /** Opens a server document; throws `UnreadableDocument` for anything that is not a sound one of ours. */
  async open(raw: { _id: string; e?: unknown }): Promise<SyncDocument> {
    const where = { database: this.database, docId: raw._id };
    const plaintext = await openDocument(this.keys, where, raw.e).catch(async () => {
      for (const keys of this.previous) {
        if (await openDocument(keys, where, raw.e).then(() => true, () => false)) throw new UnreadableDocument(raw._id, 'superseded');
      }
      throw new UnreadableDocument(raw._id, 'decrypt');
    });
    const parsed = SyncDocument.safeParse(plaintext);
    if (!parsed.success) throw new UnreadableDocument(raw._id, 'schema');
    if ((await this.idOf(parsed.data.kind, parsed.data.id)) !== raw._id) throw new UnreadableDocument(raw._id, 'misplaced');
    return parsed.data;
  }
}
