/**
 * Models known to take no images, by their id as endpoints name them (an
 * OpenRouter-style `vendor/` prefix and a `:tag` are ignored). Not knowing a
 * model means it is taken to accept images: the list only has to name the
 * well-known text-only ones, and an endpoint that refuses an image still
 * says so in its error. Written 2026-12; models change, the list is a guard.
 */
const TEXT_ONLY: readonly RegExp[] = [
  /^gpt-3\.5/,
  /^gpt-4(-0314|-0613|-32k)?$/,
  /^o1-mini/,
  /^o1-preview/,
  /^o3-mini/,
  /^text-/,
  /^davinci/,
  /^deepseek-(chat|coder|r1|reasoner|v[23])/,
  /^(meta-)?llama-?3(\.[01])?([-:]|$)/,
  /^llama-?2/,
  /^(codellama|codestral|mistral|mixtral|phi-?[23]|qwen2(\.5)?(-coder)?|qwq|gemma-?2?)([-:]|$)/,
];

export function takesImages(model: string): boolean {
  const id = (model.split('/').at(-1) ?? model).split(':', 1)[0]?.trim().toLowerCase() ?? '';
  if (/vision|-vl\b|vl-|llava|pixtral/.test(id)) return true;
  return !TEXT_ONLY.some((pattern) => pattern.test(id));
}
