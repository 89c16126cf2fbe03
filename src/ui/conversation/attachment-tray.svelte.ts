import AttachmentChips from './AttachmentChips.svelte';
import { checkAttachments } from '../../attachments/check-attachments.ts';
import type { FileKind } from '../../attachments/attachment-kind.ts';
import { readAttachedFile, type ReadFile } from '../../attachments/read-attached-file.ts';
import type { AttachmentRef } from '../../engine/records/index.ts';
import { deleteAttachments, putAttachments } from '../../storage/attachments-repo.ts';
import type { PausepointDb } from '../../storage/db.ts';
import { pageSettings } from '../../storage/live-settings.ts';
import { takesImages } from '../../model/known-text-only.ts';
import { refOf, type StoredAttachment } from '../../storage/stored-attachment.ts';

/** One file in the message being written. */
export interface TrayItem {
  key: string;
  name: string;
  size: number;
  kind: FileKind;
  /** 0 to 1 while its bytes are read and hashed; 1 once ready. */
  progress: number;
  /** An object URL of the image, for its thumbnail; revoked when it leaves the tray. */
  preview?: string;
}

interface Entry {
  item: TrayItem;
  read: Promise<ReadFile>;
}

/**
 * The files attached to the message being written: checked against the
 * limits as they come, read and hashed at once (with progress), stored only
 * when the message is sent. Loaded on demand by the composer, with the first
 * file: nothing of it is on the start path.
 */
export class AttachmentTray {
  items = $state.raw<TrayItem[]>([]);
  /** Why files were not added, one line per file: shown next to the composer. */
  errors = $state.raw<string[]>([]);
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- never rendered: `items` is what the chips read
  readonly #entries = new Map<string, Entry>();
  /** The chips that show this tray, for the composer to render without importing them itself. */
  readonly Chips = AttachmentChips;

  constructor(private readonly db: PausepointDb) {}

  get reading(): boolean {
    return this.items.some((item) => item.progress < 1);
  }

  get hasImages(): boolean {
    return this.items.some((item) => item.kind.kind === 'image');
  }

  /**
   * Why the message cannot go as it is, before anything is stored or sent:
   * images for a model known to take none (known-text-only.ts). Null: it can.
   */
  async refusal(): Promise<string | null> {
    if (!this.hasImages) return null;
    const model = (await pageSettings(this.db))?.model ?? '';
    if (takesImages(model)) return null;
    return `the model ${model} does not take images. Remove the images, or choose a model that takes them in Settings.`;
  }

  /**
   * Sends the message with its files: refused first if the model takes no
   * images; then the files' bytes are stored (all or none), and only then is
   * the message sent naming them, so no message names bytes that are not
   * stored. If storing or sending fails, the tray keeps its files (and the
   * stored copies go: no message names them) and the error is thrown.
   */
  async send<T>(sendMessage: (refs: AttachmentRef[]) => Promise<T>): Promise<T> {
    const refusal = await this.refusal();
    if (refusal) throw new Error(refusal);
    const refs = await this.store(Date.now());
    try {
      const sent = await sendMessage(refs);
      this.clear();
      return sent;
    } catch (error) {
      void this.unstore(refs).catch((cleanup: unknown) => console.warn('Pausepoint: the files of an unsent message stay stored', cleanup));
      throw error;
    }
  }

  add(files: readonly File[]): void {
    const { accepted, errors } = checkAttachments(this.items, files);
    this.errors = errors;
    const added: TrayItem[] = [];
    for (const { file, kind } of accepted) {
      const key = crypto.randomUUID();
      const item: TrayItem = { key, name: file.name || 'pasted file', size: file.size, kind, progress: 0 };
      if (kind.kind === 'image') item.preview = URL.createObjectURL(file);
      const read = readAttachedFile(file, kind, (progress) => this.#update(key, { progress }));
      // A file that cannot be read (or is too much text) leaves the tray and says why.
      read.then(
        () => this.#update(key, { progress: 1 }),
        (error: unknown) => {
          this.remove(key);
          this.errors = [...this.errors, error instanceof Error ? error.message : String(error)];
        },
      );
      this.#entries.set(key, { item, read });
      added.push(item);
    }
    this.items = [...this.items, ...added];
  }

  remove(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    if (entry.item.preview) URL.revokeObjectURL(entry.item.preview);
    this.#entries.delete(key);
    this.items = this.items.filter((item) => item.key !== key);
  }

  /**
   * Stores every file's bytes (all or none) and gives the refs the message
   * names; throws, leaving the tray as it is, when a file cannot be read or
   * the browser is out of space. `unstore` takes them back if the send fails.
   */
  async store(now: number): Promise<AttachmentRef[]> {
    const files = await Promise.all([...this.#entries.values()].map((entry) => entry.read));
    const rows: StoredAttachment[] = files.map((file) => ({ v: 1, id: crypto.randomUUID(), ...file, createdAt: now }));
    await putAttachments(this.db, rows);
    return rows.map(refOf);
  }

  async unstore(refs: readonly AttachmentRef[]): Promise<void> {
    await deleteAttachments(
      this.db,
      refs.map((ref) => ref.id),
    );
  }

  clear(): void {
    for (const key of [...this.#entries.keys()]) this.remove(key);
    this.errors = [];
  }

  #update(key: string, change: Partial<TrayItem>): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    entry.item = { ...entry.item, ...change };
    this.items = this.items.map((item) => (item.key === key ? entry.item : item));
  }
}
