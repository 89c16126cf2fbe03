import { describe, expect, it } from 'vitest';
import { matcherFrom } from './matcher-from.ts';

describe('matcherFrom', () => {
  it('reads values as JSON when they are, as text otherwise', () => {
    expect(matcherFrom('equals', '/to', ' alice ')).toEqual({ ok: true, matcher: { kind: 'equals', pointer: '/to', value: 'alice' } });
    expect(matcherFrom('equals', '/n', '42')).toEqual({ ok: true, matcher: { kind: 'equals', pointer: '/n', value: 42 } });
    expect(matcherFrom('equals', '/s', '"42"')).toEqual({ ok: true, matcher: { kind: 'equals', pointer: '/s', value: '42' } });
    expect(matcherFrom('one_of', '/m', 'GET, HEAD,,true')).toEqual({ ok: true, matcher: { kind: 'one_of', pointer: '/m', values: ['GET', 'HEAD', true] } });
    expect(matcherFrom('glob', '/url', 'https://*.example/*')).toEqual({ ok: true, matcher: { kind: 'glob', pointer: '/url', pattern: 'https://*.example/*' } });
    expect(matcherFrom('url', '/url', 'https://api.example')).toEqual({ ok: true, matcher: { kind: 'url', pointer: '/url', origin: 'https://api.example' } });
  });

  it('takes numbers only for at most and at least', () => {
    expect(matcherFrom('at_most', '/amount', '100.5')).toEqual({ ok: true, matcher: { kind: 'at_most', pointer: '/amount', value: 100.5 } });
    expect(matcherFrom('at_least', '/amount', '-3')).toEqual({ ok: true, matcher: { kind: 'at_least', pointer: '/amount', value: -3 } });
    for (const text of ['', ' ', 'ten', 'Infinity', '1e999']) expect(matcherFrom('at_most', '/amount', text)).toEqual({ ok: false, error: 'Enter a number.' });
  });

  it('refuses an empty list or origin', () => {
    expect(matcherFrom('one_of', '/m', ' , ')).toMatchObject({ ok: false });
    expect(matcherFrom('url', '/url', '  ')).toMatchObject({ ok: false });
  });
});
