import { AttachmentReadError } from './attachment-read-error.ts';

export async function extractPdfText(name: string, _bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  throw new AttachmentReadError(name, `“${name}” is a PDF, which Pausepoint cannot read yet: copy its text into a text file, or attach its pages as images.`);
}
