import { IMAGE_TYPES, type AttachmentKind } from '../engine/records/attachment-limits.ts';

/** Text files by extension, for when the browser gives no type (or a vague one): what each is sent as. */
const TEXT_EXTENSIONS: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, {
  txt: 'text/plain',
  text: 'text/plain',
  log: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  json: 'application/json',
  jsonl: 'application/jsonl',
  xml: 'application/xml',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  toml: 'application/toml',
  ini: 'text/plain',
  html: 'text/html',
  css: 'text/css',
  js: 'text/javascript',
  mjs: 'text/javascript',
  cjs: 'text/javascript',
  ts: 'text/x-typescript',
  tsx: 'text/x-typescript',
  jsx: 'text/javascript',
  svelte: 'text/plain',
  vue: 'text/plain',
  py: 'text/x-python',
  rb: 'text/x-ruby',
  go: 'text/x-go',
  rs: 'text/x-rust',
  java: 'text/x-java',
  kt: 'text/x-kotlin',
  c: 'text/x-c',
  h: 'text/x-c',
  cpp: 'text/x-c++',
  hpp: 'text/x-c++',
  cs: 'text/x-csharp',
  php: 'text/x-php',
  swift: 'text/x-swift',
  sh: 'text/x-shellscript',
  bash: 'text/x-shellscript',
  sql: 'application/sql',
  svg: 'image/svg+xml',
});

/** Non-`text/` types that are text all the same. */
const TEXT_TYPES = new Set(['application/json', 'application/jsonl', 'application/xml', 'application/yaml', 'application/x-yaml', 'application/toml', 'application/sql', 'application/javascript', 'application/x-sh', 'image/svg+xml']);

const EXTENSION_IMAGES: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
});

export interface FileKind {
  kind: AttachmentKind;
  /** The MIME type it is stored and sent as. */
  type: string;
}

/**
 * What a file is sent as, from its type and, where the browser gave none or a
 * vague one, its extension; null when it is none of what the model can take.
 * An SVG is sent as text (it is markup, and no endpoint takes it as an image).
 */
export function attachmentKind(name: string, type: string): FileKind | null {
  const mime = type.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  if ((IMAGE_TYPES as readonly string[]).includes(mime)) return { kind: 'image', type: mime };
  if (mime === 'application/pdf') return { kind: 'pdf', type: mime };
  if (mime.startsWith('text/') || TEXT_TYPES.has(mime)) return { kind: 'text', type: mime };
  // Only a missing or generic type is read from the extension: a declared type of something else (a zip) stays refused.
  if (mime !== '' && mime !== 'application/octet-stream') return null;
  const image = EXTENSION_IMAGES[extension];
  if (image) return { kind: 'image', type: image };
  if (extension === 'pdf') return { kind: 'pdf', type: 'application/pdf' };
  const text = TEXT_EXTENSIONS[extension];
  return text ? { kind: 'text', type: text } : null;
}

export const ACCEPTED_FILES = 'images (PNG, JPEG, GIF, WebP), text files (plain text, Markdown, CSV, JSON, source code) and PDFs';
