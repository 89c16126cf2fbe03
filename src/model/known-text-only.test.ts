import { describe, expect, it } from 'vitest';
import { takesImages } from './known-text-only.ts';

describe('takesImages', () => {
  it.each(['gpt-3.5-turbo', 'o1-mini', 'o3-mini-2025-01-31', 'gpt-4', 'openai/gpt-3.5-turbo', 'deepseek-r1:14b', 'llama3.1:8b', 'meta-llama/llama-3.1-70b-instruct', 'mistral:7b', 'qwen2.5-coder:7b'])(
    '%s takes no images',
    (model) => expect(takesImages(model)).toBe(false),
  );

  it.each(['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-4-turbo', 'o1', 'claude-sonnet-4-5', 'gemini-2.5-flash', 'llama3.2-vision:11b', 'qwen2.5-vl-7b', 'llava:13b', 'my-company-model', ''])(
    '%s is taken to take images',
    (model) => expect(takesImages(model)).toBe(true),
  );
});
