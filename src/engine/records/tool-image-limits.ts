/**
 * What a tool's image may be to be kept and shown (zod-free, so the page can
 * check a stored image without loading the record schemas).
 */

/** Types the page shows from a data: URL (the CSP's img-src allows data:); no SVG, which is a document. */
export const TOOL_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
/** Base64 characters per image: about 375 KB decoded. Larger images are not kept (the model's placeholder says so). */
export const MAX_TOOL_IMAGE_CHARS = 500_000;
export const MAX_TOOL_IMAGES = 4;
export const BASE64_DATA = /^[A-Za-z0-9+/]+={0,2}$/;
