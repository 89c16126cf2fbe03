/** A file that could not become an attachment; the message names it and says why. */
export class AttachmentReadError extends Error {
  override readonly name = 'AttachmentReadError';
  constructor(
    readonly fileName: string,
    message: string,
  ) {
    super(message);
  }
}
