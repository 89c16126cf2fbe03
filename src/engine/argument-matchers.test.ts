import { describe, expect, it } from 'vitest';
import { CallArguments, matchesAll, matchesArgument } from './argument-matchers.ts';
import type { ArgumentMatcher } from './records/index.ts';

const holds = (matcher: ArgumentMatcher, args: unknown) => matchesArgument(matcher, new CallArguments(args));

describe('argument matchers', () => {
  it('equals compares JSON values deeply, whatever the key order', () => {
    expect(holds({ kind: 'equals', pointer: '/method', value: 'GET' }, { method: 'GET' })).toBe(true);
    expect(holds({ kind: 'equals', pointer: '/method', value: 'GET' }, { method: 'get' })).toBe(false);
    expect(holds({ kind: 'equals', pointer: '/to', value: { name: 'ada', tags: [1, 2] } }, { to: { tags: [1, 2], name: 'ada' } })).toBe(true);
    expect(holds({ kind: 'equals', pointer: '/to', value: { name: 'ada' } }, { to: { name: 'ada', extra: true } })).toBe(false);
    expect(holds({ kind: 'equals', pointer: '/tags', value: [1, 2] }, { tags: [2, 1] })).toBe(false);
    expect(holds({ kind: 'equals', pointer: '/n', value: 1 }, { n: '1' })).toBe(false);
    expect(holds({ kind: 'equals', pointer: '/x', value: null }, { x: null })).toBe(true);
    expect(holds({ kind: 'equals', pointer: '/list', value: {} }, { list: [] })).toBe(false);
  });

  it('one_of holds when any value is equal', () => {
    const matcher: ArgumentMatcher = { kind: 'one_of', pointer: '/method', values: ['GET', 'HEAD'] };
    expect(holds(matcher, { method: 'HEAD' })).toBe(true);
    expect(holds(matcher, { method: 'POST' })).toBe(false);
  });

  it('glob holds for strings that match, and for nothing else', () => {
    const matcher: ArgumentMatcher = { kind: 'glob', pointer: '/to', pattern: '*@example.com' };
    expect(holds(matcher, { to: 'ada@example.com' })).toBe(true);
    expect(holds(matcher, { to: 'ada@example.com.evil.test' })).toBe(false);
    expect(holds(matcher, { to: ['ada@example.com'] })).toBe(false);
    expect(holds({ kind: 'glob', pointer: '/n', pattern: '*' }, { n: 5 })).toBe(false);
  });

  it('at_most and at_least compare finite numbers only', () => {
    expect(holds({ kind: 'at_most', pointer: '/amount', value: 100 }, { amount: 100 })).toBe(true);
    expect(holds({ kind: 'at_most', pointer: '/amount', value: 100 }, { amount: 100.01 })).toBe(false);
    expect(holds({ kind: 'at_most', pointer: '/amount', value: 100 }, { amount: '50' })).toBe(false);
    expect(holds({ kind: 'at_most', pointer: '/amount', value: 100 }, { amount: -Infinity })).toBe(false);
    expect(holds({ kind: 'at_least', pointer: '/amount', value: 10 }, { amount: 10 })).toBe(true);
    expect(holds({ kind: 'at_least', pointer: '/amount', value: 10 }, { amount: 9 })).toBe(false);
    expect(holds({ kind: 'at_least', pointer: '/amount', value: 10 }, { amount: NaN })).toBe(false);
  });

  it('never holds for an argument that is not there: leaving it out cannot satisfy a rule', () => {
    const matchers: ArgumentMatcher[] = [
      { kind: 'equals', pointer: '/to', value: null },
      { kind: 'one_of', pointer: '/to', values: ['a'] },
      { kind: 'glob', pointer: '/to', pattern: '*' },
      { kind: 'at_most', pointer: '/amount', value: 100 },
      { kind: 'at_least', pointer: '/amount', value: 0 },
      { kind: 'url', pointer: '/url', origin: 'https://api.example.com' },
    ];
    for (const matcher of matchers) expect(holds(matcher, {})).toBe(false);
    // …nor one that only the prototype chain has.
    expect(holds({ kind: 'glob', pointer: '/constructor', pattern: '*' }, {})).toBe(false);
    expect(holds({ kind: 'equals', pointer: '/toString', value: {} }, {})).toBe(false);
  });

  it('needs every matcher to hold', () => {
    const matchers: ArgumentMatcher[] = [
      { kind: 'one_of', pointer: '/method', values: ['GET', 'HEAD'] },
      { kind: 'url', pointer: '/url', origin: 'https://api.example.com' },
    ];
    expect(matchesAll(matchers, new CallArguments({ method: 'GET', url: 'https://api.example.com/x' }))).toBe(true);
    expect(matchesAll(matchers, new CallArguments({ method: 'POST', url: 'https://api.example.com/x' }))).toBe(false);
    expect(matchesAll([], new CallArguments({}))).toBe(true);
  });
});

describe('the url matcher', () => {
  const onApi: ArgumentMatcher = { kind: 'url', pointer: '/url', origin: 'https://api.example.com' };
  const underApi: ArgumentMatcher = { kind: 'url', pointer: '/url', origin: 'https://api.example.com', pathPrefix: '/api/' };
  const url = (value: unknown) => ({ url: value });

  it('holds for the origin, exactly: scheme, host and port', () => {
    expect(holds(onApi, url('https://api.example.com/v1/items?q=1'))).toBe(true);
    expect(holds(onApi, url('https://API.Example.com:443/v1'))).toBe(true);
    expect(holds(onApi, url('http://api.example.com/v1'))).toBe(false);
    expect(holds(onApi, url('https://api.example.com:8443/v1'))).toBe(false);
    expect(holds(onApi, url('https://example.com/'))).toBe(false);
    expect(holds(onApi, url('https://sub.api.example.com/'))).toBe(false);
  });

  it('is not fooled by hosts that only start or end like the allowed one', () => {
    expect(holds(onApi, url('https://api.example.com.evil.com/'))).toBe(false);
    expect(holds(onApi, url('https://api.example.com.evil.com'))).toBe(false);
    expect(holds(onApi, url('https://evilapi.example.com/'))).toBe(false);
    expect(holds(onApi, url('https://api.example.co/'))).toBe(false);
  });

  it('is not fooled by userinfo, and never holds for a URL that has any', () => {
    expect(holds(onApi, url('https://api.example.com@evil.com/'))).toBe(false);
    expect(holds(onApi, url('https://api.example.com:443@evil.com/'))).toBe(false);
    expect(holds(onApi, url('https://api.example.com%40evil.com/'))).toBe(false);
    expect(holds(onApi, url('https://user:secret@api.example.com/'))).toBe(false);
    expect(holds(onApi, url('https://evil.com\\@api.example.com/'))).toBe(false);
  });

  it('never holds for what is not a URL, or has no origin', () => {
    expect(holds(onApi, url('api.example.com/v1'))).toBe(false);
    expect(holds(onApi, url('//api.example.com/v1'))).toBe(false);
    expect(holds(onApi, url(42))).toBe(false);
    expect(holds(onApi, url(['https://api.example.com/']))).toBe(false);
    expect(holds({ ...onApi, origin: 'null' }, url('data:text/plain,hi'))).toBe(false);
  });

  it('holds for paths under the prefix, segment by segment', () => {
    expect(holds(underApi, url('https://api.example.com/api/items'))).toBe(true);
    expect(holds(underApi, url('https://api.example.com/api/'))).toBe(true);
    expect(holds(underApi, url('https://api.example.com/api'))).toBe(false);
    expect(holds(underApi, url('https://api.example.com/apiary'))).toBe(false);
    expect(holds(underApi, url('https://api.example.com/admin'))).toBe(false);
    const segment: ArgumentMatcher = { ...underApi, pathPrefix: '/api' };
    expect(holds(segment, url('https://api.example.com/api'))).toBe(true);
    expect(holds(segment, url('https://api.example.com/api/v1'))).toBe(true);
    expect(holds(segment, url('https://api.example.com/apiary'))).toBe(false);
  });

  it('compares the path as a server may read it: dot segments, escapes, backslashes and doubled slashes resolved', () => {
    const escapes = [
      'https://api.example.com/api/../admin',
      'https://api.example.com/api/./../admin',
      'https://api.example.com/api/%2e%2e/admin',
      'https://api.example.com/api/%2E%2E/admin',
      'https://api.example.com/api/..%2fadmin',
      'https://api.example.com/api/..%2Fadmin',
      'https://api.example.com/api/%2e%2e%2fadmin',
      'https://api.example.com/api/..%5cadmin',
      'https://api.example.com/api\\..\\admin',
      'https://api.example.com/api/..;/admin',
      'https://api.example.com/api/x//..%2f..%2fadmin',
      'https://api.example.com/api/%2f%2e%2e%2fadmin',
      'https://api.example.com/api/%252e%252e/admin',
      'https://api.example.com/api/%25252e%25252e%25252fadmin',
      'https://api.example.com/api/%zz/../../admin',
    ];
    for (const escape of escapes) expect(holds(underApi, url(escape)), escape).toBe(false);
    expect(holds(underApi, url('https://api.example.com/api/v1/../v2/items'))).toBe(true);
    // The browser itself resolves this to /api/admin before sending it: that is the request, and it is under /api/.
    expect(holds(underApi, url('https://api.example.com/api//../admin'))).toBe(true);
    expect(holds(underApi, url('https://api.example.com/api/my%20docs'))).toBe(true);
    expect(holds(underApi, url('https://api.example.com/api/100%25'))).toBe(true);
  });

  it('reads one URL once per call, however many rules ask', () => {
    const args = new CallArguments({ url: 'https://api.example.com/api/x' });
    expect(args.urlAt('/url')).toBe(args.urlAt('/url'));
  });
});
