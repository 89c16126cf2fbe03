import { z } from 'zod';
import type { ChatGptContent } from './chatgpt-export.ts';
import { codeFence } from '../engine/code-fence.ts';

const Parts = z.looseObject({ parts: z.array(z.unknown()) });
const Text = z.looseObject({ text: z.string() });
const Code = z.looseObject({ text: z.string(), language: z.string().nullish() });
const Browsing = z.looseObject({ result: z.string().nullish(), summary: z.string().nullish() });
const Quote = z.looseObject({ url: z.string().nullish(), title: z.string().nullish(), text: z.string().nullish() });
const Context = z.looseObject({ user_profile: z.string().nullish(), user_instructions: z.string().nullish() });
const ImagePart = z.looseObject({
  content_type: z.literal('image_asset_pointer'),
  asset_pointer: z.string().nullish(),
  width: z.number().nullish(),
  height: z.number().nullish(),
});
const TranscriptPart = z.looseObject({ content_type: z.literal('audio_transcription'), text: z.string() });

/** What an image by reference becomes: the export holds a pointer to a file, not the picture. */
export function imagePlaceholder(pointer: string | null | undefined, width?: number | null, height?: number | null): string {
  const size = width && height ? `, ${width}×${height}` : '';
  return `[Image not imported: ${pointer ?? 'no reference'}${size}]`;
}

/**
 * A message's content as text, or '' for nothing to show. Text parts are kept
 * as written; an image part (a reference into the export's files, not the
 * image) becomes a placeholder naming it; code and tool output go in fences.
 * A content type this does not know is named, not dropped silently.
 */
export function contentText(content: ChatGptContent): string {
  switch (content.content_type) {
    case 'text':
    case 'multimodal_text':
      return partsText(content);
    case 'code': {
      const code = Code.safeParse(content);
      return code.success ? codeFence(code.data.text, code.data.language === 'unknown' ? '' : (code.data.language ?? '')) : unknownContent(content);
    }
    case 'execution_output':
    case 'system_error': {
      const text = Text.safeParse(content);
      return text.success ? codeFence(text.data.text) : unknownContent(content);
    }
    case 'tether_browsing_display': {
      const browsing = Browsing.safeParse(content);
      return browsing.success ? (browsing.data.result ?? browsing.data.summary ?? '').trim() : unknownContent(content);
    }
    case 'tether_quote': {
      const quote = Quote.safeParse(content);
      if (!quote.success) return unknownContent(content);
      const { title, url, text } = quote.data;
      return [title && url ? `[${title}](${url})` : (url ?? title ?? ''), text ?? ''].filter(Boolean).join('\n\n');
    }
    case 'user_editable_context': {
      const context = Context.safeParse(content);
      if (!context.success) return unknownContent(content);
      return [context.data.user_profile, context.data.user_instructions].filter((s): s is string => Boolean(s?.trim())).join('\n\n');
    }
    // The model's hidden reasoning: not part of what the person saw.
    case 'thoughts':
    case 'reasoning_recap':
      return '';
    default:
      return unknownContent(content);
  }
}

function partsText(content: ChatGptContent): string {
  const parsed = Parts.safeParse(content);
  if (!parsed.success) return unknownContent(content);
  const out: string[] = [];
  for (const part of parsed.data.parts) {
    if (typeof part === 'string') {
      if (part.trim()) out.push(part);
      continue;
    }
    const image = ImagePart.safeParse(part);
    if (image.success) {
      out.push(imagePlaceholder(image.data.asset_pointer, image.data.width, image.data.height));
      continue;
    }
    const transcript = TranscriptPart.safeParse(part);
    if (transcript.success) {
      out.push(transcript.data.text);
      continue;
    }
    out.push(`[${partType(part)} not imported]`);
  }
  return out.join('\n\n');
}

function partType(part: unknown): string {
  if (typeof part === 'object' && part !== null && 'content_type' in part && typeof part.content_type === 'string') return part.content_type;
  return 'Content';
}

function unknownContent(content: ChatGptContent): string {
  return `[${content.content_type} not imported]`;
}
