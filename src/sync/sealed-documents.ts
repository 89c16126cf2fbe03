import { signCanonical, verifyCanonical } from '../identity/device-signature.ts';
import type { DeviceIdentity } from '../identity/device-identity.ts';
import type { SyncKeys } from './crypto/data-key.ts';
import { documentId } from './crypto/document-id.ts';
import { openDocument, sealDocument } from './crypto/envelope.ts';
import type { MemberKeys } from './membership/live-membership.ts';
import { SyncDocument, type SyncKind } from './sync-document.ts';

/** A document as it goes to the server: an opaque id and one envelope, nothing else. */
export type SealedBody = { _id: string; e: unknown };

/** Why a document from the server was not applied: it is skipped, counted and shown, never applied. */
export class UnreadableDocument extends Error {
  override readonly name = 'UnreadableDocument';
  constructor(
    readonly docId: string,
    /**
     * `superseded`: sealed under a data key a rotation replaced, so written before it (or by a removed device): never applied, not counted.
     * `unsigned`: written by a version before documents were signed. `signer`: its writer (`from`) is no member this device
     * pinned, or a removed one. `signature`: the signature is not that member's over this document at this id.
     */
    readonly reason: 'decrypt' | 'schema' | 'misplaced' | 'superseded' | 'unsigned' | 'signer' | 'signature',
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
 *
 * Inside the envelope, each document is signed by the device that wrote it
 * (`{doc, sig}`, sig = signCanonical over `{database, docId, doc}` with its
 * signing key), and opened only when the signature is that of the member
 * named in `from`, as the membership log pinned it, not removed: a device
 * holding the data key can read, but can no longer write as another device.
 */
export class SealedDocuments {
  constructor(
    private readonly keys: SyncKeys,
    readonly database: string,
    /** The keys rotations replaced, newest first: only to recognise what was sealed under them. */
    private readonly previous: readonly SyncKeys[],
    private readonly signer: { identity: DeviceIdentity; members: MemberKeys },
  ) {}

  idOf(kind: SyncKind, localId: string): Promise<string> {
    return documentId(this.keys, kind, localId);
  }

  async seal(doc: SyncDocument): Promise<SealedBody> {
    const docId = await this.idOf(doc.kind, doc.id);
    const sig = await signCanonical(this.signer.identity.privateKey, { database: this.database, docId, doc });
    return { _id: docId, e: await sealDocument(this.keys, { database: this.database, docId }, { doc, sig }) };
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
    if (typeof plaintext !== 'object' || plaintext === null || !('doc' in plaintext) || !('sig' in plaintext) || typeof plaintext.sig !== 'string') {
      throw new UnreadableDocument(raw._id, 'unsigned');
    }
    const parsed = SyncDocument.safeParse(plaintext.doc);
    if (!parsed.success) throw new UnreadableDocument(raw._id, 'schema');
    const doc = parsed.data;
    if ((await this.idOf(doc.kind, doc.id)) !== raw._id) throw new UnreadableDocument(raw._id, 'misplaced');
    // A pairing link's one use is written before its device joins the log: it only ever stops the link from being used again.
    if (doc.kind === 'pairingUsed') return doc;
    const key = this.signer.members.keyOf(doc.from);
    if (!key) throw new UnreadableDocument(raw._id, 'signer');
    // Checked over the document as it was sealed, before the schema's parse could drop or default anything.
    if (!(await verifyCanonical(key, { database: this.database, docId: raw._id, doc: plaintext.doc }, plaintext.sig))) throw new UnreadableDocument(raw._id, 'signature');
    return doc;
  }

  /** The version counter of a document whatever its signature (a push that met another revision counts past it). */
  async counterOf(raw: { _id: string; e?: unknown }): Promise<number | undefined> {
    const plaintext = await openDocument(this.keys, { database: this.database, docId: raw._id }, raw.e).catch(() => undefined);
    const doc = typeof plaintext === 'object' && plaintext !== null && 'doc' in plaintext ? plaintext.doc : plaintext;
    const n = typeof doc === 'object' && doc !== null && 'n' in doc ? doc.n : undefined;
    return typeof n === 'number' && Number.isInteger(n) ? n : undefined;
  }
}
