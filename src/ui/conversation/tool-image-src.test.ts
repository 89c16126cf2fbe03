import { describe, expect, it } from 'vitest';
import { toolImageSrc } from './tool-image-src.ts';

describe('toolImageSrc', () => {
  it('builds a data: URL for a common image type with base64 data', () => {
    expect(toolImageSrc({ mimeType: 'image/png', data: 'iVBORw0KGgo=' })).toBe('data:image/png;base64,iVBORw0KGgo=');
  });

  it('refuses other types, data that is not base64, and oversized data', () => {
    expect(toolImageSrc({ mimeType: 'image/svg+xml', data: 'PHN2Zz4=' })).toBeNull();
    expect(toolImageSrc({ mimeType: 'text/html', data: 'PGI+' })).toBeNull();
    expect(toolImageSrc({ mimeType: 'image/png', data: 'abc"onerror="x' })).toBeNull();
    expect(toolImageSrc({ mimeType: 'image/png', data: 'A'.repeat(500_004) })).toBeNull();
  });
});
