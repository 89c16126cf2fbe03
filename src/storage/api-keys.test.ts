import { describe, expect, it } from 'vitest';
import { apiKeyFor, storedApiKeys, withApiKey } from './api-keys.ts';
import { endpointOrigin, isLoopbackHost, plainHttpAllowed } from './endpoint-origin.ts';

describe('stored API keys', () => {
  const row = { v: 1, keys: { 'https://api.openai.com': 'sk-a', 'http://localhost:11434': 'local' } };

  it('gives each base URL the key of its exact origin only', () => {
    expect(apiKeyFor(row, 'https://api.openai.com/v1')).toBe('sk-a');
    expect(apiKeyFor(row, 'HTTPS://API.OPENAI.COM:443/other')).toBe('sk-a');
    expect(apiKeyFor(row, 'http://api.openai.com/v1')).toBe('');
    expect(apiKeyFor(row, 'https://api.openai.com:8443/v1')).toBe('');
    expect(apiKeyFor(row, 'https://openai.com/v1')).toBe('');
    expect(apiKeyFor(row, 'https://api.openai.com.evil.example/v1')).toBe('');
    expect(apiKeyFor(row, 'http://localhost:11434/v1')).toBe('local');
    expect(apiKeyFor(row, 'http://127.0.0.1:11434/v1')).toBe('');
    expect(apiKeyFor(row, 'not a url')).toBe('');
  });

  it.each([
    ['no row', undefined],
    ['another version', { ...row, v: 2 }],
    ['keys that are not an object', { v: 1, keys: ['sk-a'] }],
    ['a string', 'sk-a'],
  ])('%s holds no keys', (_case, value) => {
    expect(storedApiKeys(value)).toEqual(new Map());
  });

  it('skips entries that are not an origin and a string key, including prototype names', () => {
    const value = JSON.parse('{"v":1,"keys":{"__proto__":"sk-p","constructor":"sk-c","https://ok.example":"sk-ok","https://ok.example/v1":"sk-path","https://n.example":7,"https://e.example":""}}');
    expect(storedApiKeys(value)).toEqual(new Map([['https://ok.example', 'sk-ok']]));
    expect(apiKeyFor(value, 'https://ok.example/v1')).toBe('sk-ok');
  });

  it('sets and removes one origin’s key, keeping the others', () => {
    const added = withApiKey(row, 'https://openrouter.ai', 'sk-or');
    expect(added).toEqual({ v: 1, keys: { ...row.keys, 'https://openrouter.ai': 'sk-or' } });
    expect(withApiKey(added, 'https://api.openai.com', '')).toEqual({ v: 1, keys: { 'http://localhost:11434': 'local', 'https://openrouter.ai': 'sk-or' } });
    expect(withApiKey(undefined, 'https://a.example', 'k')).toEqual({ v: 1, keys: { 'https://a.example': 'k' } });
  });
});

describe('endpoint origins', () => {
  it('are the origin of http(s) URLs only', () => {
    expect(endpointOrigin(' https://openrouter.ai/api/v1 ')).toBe('https://openrouter.ai');
    expect(endpointOrigin('ftp://example.com')).toBeUndefined();
    expect(endpointOrigin('javascript:alert(1)')).toBeUndefined();
  });

  it('this computer is localhost, 127.0.0.0/8 and [::1], as the URL parser writes them', () => {
    for (const host of ['localhost', '127.0.0.1', '127.255.0.9', '[::1]']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['localhost.evil.example', '128.0.0.1', '10.0.0.1', '[::2]', '[::ffff:7f00:1]', 'example.com']) expect(isLoopbackHost(host), host).toBe(false);
    expect(plainHttpAllowed('http://127.1:8080/v1')).toBe(true);
    expect(plainHttpAllowed('http://0x7f000001/v1')).toBe(true);
    expect(plainHttpAllowed('http://gateway.example/v1')).toBe(false);
    expect(plainHttpAllowed('https://gateway.example/v1')).toBe(true);
  });
});
