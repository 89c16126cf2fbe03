import { BASE64_DATA, MAX_TOOL_IMAGE_CHARS, TOOL_IMAGE_TYPES } from '../../engine/records/tool-image-limits.ts';

const SHOWN: ReadonlySet<string> = new Set(TOOL_IMAGE_TYPES);

/**
 * A stored tool image as a data: URL, or null when it is not one the page
 * shows. The worker checked it before storing; the page reads rows as stored,
 * so it checks again rather than build a URL from whatever a row holds.
 */
export function toolImageSrc(image: { mimeType: string; data: string }): string | null {
  if (!SHOWN.has(image.mimeType) || image.data.length > MAX_TOOL_IMAGE_CHARS || !BASE64_DATA.test(image.data)) return null;
  return `data:${image.mimeType};base64,${image.data}`;
}
