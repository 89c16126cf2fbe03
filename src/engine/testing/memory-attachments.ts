import type { AttachmentContent, AttachmentsPort } from '../attachments-port.ts';
import type { AttachmentRef } from '../records/index.ts';

/** Attachments' contents held in memory, for engine tests; counts its reads. */
export class MemoryAttachments implements AttachmentsPort {
  readonly #contents = new Map<string, AttachmentContent>();
  reads = 0;

  put(id: string, content: AttachmentContent): void {
    this.#contents.set(id, content);
  }

  async read(refs: readonly AttachmentRef[]): Promise<ReadonlyMap<string, AttachmentContent>> {
    this.reads++;
    const out = new Map<string, AttachmentContent>();
    for (const ref of refs) {
      const content = this.#contents.get(ref.id);
      if (content) out.set(ref.id, content);
    }
    return out;
  }
}
