import { describe, expect, test } from 'vitest';
import { modelFor } from './model-from-settings.ts';

const endpoint = { provider: 'custom', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-one', model: 'fake-model' };

describe('modelFor', () => {
  test('hands back the same model while the endpoint is unchanged (no new SDK client per call)', () => {
    const first = modelFor(endpoint);
    expect(modelFor({ ...endpoint })).toBe(first);
  });

  test.each([
    ['provider', { provider: 'openai' }],
    ['base URL', { baseUrl: 'http://127.0.0.1:10/v1' }],
    ['API key', { apiKey: 'sk-two' }],
    ['model', { model: 'other-model' }],
  ])('builds a new one when the %s changes', (_field, change) => {
    const before = modelFor(endpoint);
    const changed = modelFor({ ...endpoint, ...change });
    expect(changed).not.toBe(before);
    // And going back builds again: a key once replaced is not kept around.
    expect(modelFor(endpoint)).not.toBe(changed);
  });

  test('the demo is cached like any endpoint, and apart from it', () => {
    const demo = modelFor({ provider: 'demo', baseUrl: '', apiKey: '', model: 'pausepoint-demo' });
    expect(modelFor({ provider: 'demo', baseUrl: '', apiKey: '', model: 'pausepoint-demo' })).toBe(demo);
    expect(modelFor(endpoint)).not.toBe(demo);
  });
});
