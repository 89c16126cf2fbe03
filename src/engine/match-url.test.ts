import { describe, expect, it } from 'vitest';
import { canonicalOrigin, isUnderPath, normalisePath, withoutTrailingDot } from './match-url.ts';

describe('normalisePath', () => {
  it.each([
    ['/', '/'],
    ['/api/', '/api/'],
    ['/api/v1', '/api/v1'],
    ['/api/../admin', '/admin'],
    ['/api/..%2fadmin', '/admin'],
    ['/api/%2e%2e/admin', '/admin'],
    ['/api/%252e%252e/admin', '/admin'],
    ['/api\\..\\admin', '/admin'],
    ['/api/..;jsessionid=1/admin', '/admin'],
    ['//api//v1', '/api/v1'],
    ['/api/v1/..', '/api/'],
    ['/../../etc', '/etc'],
    ['/my%20docs', '/my docs'],
    ['/100%25', '/100%'],
  ])('%s reads as %s', (path, expected) => {
    expect(normalisePath(path)).toBe(expected);
  });

  it('gives up on what cannot be decoded, or is encoded too many times over', () => {
    expect(normalisePath('/api/%zz')).toBeNull();
    expect(normalisePath('/api/%252525252e')).toBeNull();
  });

  it('compares prefixes normalised the same way', () => {
    expect(isUnderPath('/api/v1', '/api/./')).toBe(true);
    expect(isUnderPath('/admin', '/api/..')).toBe(true);
    expect(isUnderPath(null, '/api/')).toBe(false);
    expect(isUnderPath('/api/v1', 'api/')).toBe(false);
  });
});

describe('canonicalOrigin', () => {
  it('writes an origin the way URL#origin does', () => {
    expect(canonicalOrigin('https://API.example.com')).toBe('https://api.example.com');
    expect(canonicalOrigin('https://api.example.com/')).toBe('https://api.example.com');
    expect(canonicalOrigin('https://api.example.com:443')).toBe('https://api.example.com');
    expect(canonicalOrigin('http://localhost:8080')).toBe('http://localhost:8080');
  });

  it('refuses anything that says more, or less, than an origin', () => {
    expect(canonicalOrigin('https://api.example.com/v1')).toBeNull();
    expect(canonicalOrigin('https://api.example.com/?q=1')).toBeNull();
    expect(canonicalOrigin('https://api.example.com/#top')).toBeNull();
    expect(canonicalOrigin('https://me@api.example.com')).toBeNull();
    expect(canonicalOrigin('api.example.com')).toBeNull();
    expect(canonicalOrigin('data:text/plain,hi')).toBeNull();
  });
});

describe('point 12: trailing dots', () => {
  it('writes an origin without one trailing dot of its host, as rules store and compare it', () => {
    expect(canonicalOrigin('https://evil.example.')).toBe('https://evil.example');
    expect(canonicalOrigin('https://Evil.Example.:8443/')).toBe('https://evil.example:8443');
    expect(withoutTrailingDot('https://evil.example.')).toBe('https://evil.example');
    expect(withoutTrailingDot('https://evil.example.:8443')).toBe('https://evil.example:8443');
    expect(withoutTrailingDot('https://evil.example..')).toBe('https://evil.example.');
    expect(withoutTrailingDot('http://[::1]:8080')).toBe('http://[::1]:8080');
    expect(withoutTrailingDot('http://[::1]')).toBe('http://[::1]');
  });
});
