/**
 * What a message may carry (zod-free, so the page's composer can check files
 * without loading the record schemas). The engine's records bound the same numbers.
 */
export const MAX_FILES_PER_MESSAGE = 10;
/** Sizes in decimal units, as humanSize shows them: 8 MB is 8,000,000 bytes. */
export const MAX_FILE_BYTES = 8_000_000;
export const MAX_MESSAGE_BYTES = 20_000_000;
/** Characters of text kept from one file; longer files are refused rather than silently cut. */
export const MAX_FILE_TEXT_CHARS = 200_000;
export const MAX_ATTACHMENT_NAME = 255;

/** Images the model is sent as image parts (what Chat Completions endpoints take); no SVG, which is a document. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

export type AttachmentKind = 'image' | 'text' | 'pdf';
