import { describe, expect, it } from 'vitest';
import { CallArguments, matchesAll, matchesArgument } from './argument-matchers.ts';
import type { ArgumentMatcher } from './records/index.ts';

const matchOf = (matcher: ArgumentMatcher, args: unknown) => matchesArgument(matcher, new CallArguments(args));
const holds = (matcher: ArgumentMatcher, args: unknown) => matchOf(matcher, args) === 'holds';

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
    expect(matchesAll(matchers, new CallArguments({ method: 'GET', url: 'https://api.example.com/x' }))).toBe('holds');
    expect(matchesAll(matchers, new CallArguments({ method: 'POST', url: 'https://api.example.com/x' }))).toBe('fails');
    expect(matchesAll([], new CallArguments({}))).toBe('holds');
    // One that fails decides, whatever another cannot tell.
    expect(matchesAll(matchers, new CallArguments({ method: 'POST', url: 'https://api.example.com\\@evil.example/' }))).toBe('fails');
    expect(matchesAll(matchers, new CallArguments({ method: 'GET', url: 'https://api.example.com\\@evil.example/' }))).toBe('unclear');
  });
});

describe('the url matcher', () => {
  const onApi: ArgumentMatcher = { kind: 'url', pointer: '/url', origin: 'https://api.example.com' };
  const underApi: ArgumentMatcher = { kind: 'url', pointer: '/url', origin: 'https://api.example.com', pathPrefix: '/api/' };
  const url = (value: unknown) => ({ url: value });

  it('holds for the origin, exactly: scheme, host and port', () => {
    expect(holds(onApi, url('https://api.example.com/v1/items?q=1'))).toBe(true);
    // Written otherwise than the browser writes it back: no rule reads it (see point 6 below).
    expect(matchOf(onApi, url('https://API.Example.com:443/v1'))).toBe('unclear');
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
    // Canonical, and under /api/ however a server decodes it.
    expect(holds(underApi, url('https://api.example.com/api/v2/items'))).toBe(true);
    // The browser resolves these before sending them, another parser may not: unclear, never a match.
    expect(matchOf(underApi, url('https://api.example.com/api/v1/../v2/items'))).toBe('unclear');
    expect(matchOf(underApi, url('https://api.example.com/api//../admin'))).toBe('unclear');
    expect(holds(underApi, url('https://api.example.com/api/my%20docs'))).toBe(true);
    expect(holds(underApi, url('https://api.example.com/api/100%25'))).toBe(true);
  });

  it('reads one URL once per call, however many rules ask', () => {
    const args = new CallArguments({ url: 'https://api.example.com/api/x' });
    expect(args.urlAt('/url')).toBe(args.urlAt('/url'));
  });
});

describe('point 6: URL and path arguments that may mean another place to the server', () => {
  const onAllowed: ArgumentMatcher = { kind: 'url', pointer: '/url', origin: 'https://allowed.example' };
  const safeGlob: ArgumentMatcher = { kind: 'glob', pointer: '/path', pattern: '/safe/*' };

  it('a URL rule reads only a URL whose raw string is its own href; any other string is unclear', () => {
    // allowed.example to the browser's parser, evil.example to an RFC 3986 one.
    expect(matchOf(onAllowed, { url: 'https://allowed.example\\@evil.example/' })).toBe('unclear');
    for (const value of [
      'https://Allowed.example/',
      'https://allowed.example:443/',
      'https://allowed.example',
      'https://allowed.example/a/../b',
      'https://allowed.example/%2e%2e/b',
      'https://allowed.example/a b',
      'HTTPS://allowed.example/',
      ' https://allowed.example/',
      'https://user@allowed.example/',
      'allowed.example/x',
      '//evil.example/x',
    ]) {
      expect(matchOf(onAllowed, { url: value }), value).toBe('unclear');
    }
    expect(matchOf(onAllowed, { url: 'https://allowed.example/a/b?q=1#h' })).toBe('holds');
    expect(matchOf(onAllowed, { url: 'https://evil.example/' })).toBe('fails');
    // What is no string cannot be a URL to anyone: it fails, as before.
    expect(matchOf(onAllowed, { url: 42 })).toBe('fails');
    expect(matchOf(onAllowed, {})).toBe('fails');
  });

  it('a path glob matches only plain paths: dot segments, doubled, encoded or back slashes are unclear', () => {
    for (const path of [
      '/safe/../secrets',
      '/safe/./x',
      '/safe/.',
      '/safe/..',
      '/safe/%2e%2e/secrets',
      '/safe/%2E%2E/secrets',
      '/safe/%252e%252e/secrets',
      '/safe/..;/secrets',
      '/safe//x',
      '/safe/a%2fb',
      '/safe/a%2Fb',
      '/safe/a%5cb',
      '/safe\\..\\secrets',
      '/safe/%zz',
      'safe/x',
    ]) {
      expect(matchOf(safeGlob, { path }), path).toBe('unclear');
    }
    expect(matchOf(safeGlob, { path: '/safe/notes.txt' })).toBe('holds');
    expect(matchOf(safeGlob, { path: '/safe/dir/' })).toBe('holds');
    expect(matchOf(safeGlob, { path: '/safe/my%20notes' })).toBe('holds');
    expect(matchOf(safeGlob, { path: '/secrets/key' })).toBe('fails');
    // A glob not over paths compares characters, as before.
    expect(matchOf({ kind: 'glob', pointer: '/to', pattern: '*@example.com' }, { to: '../a@example.com' })).toBe('holds');
  });
});

describe('point 12: trailing dots', () => {
  it('drops one trailing dot of the host on both sides of a URL match', () => {
    const onEvil: ArgumentMatcher = { kind: 'url', pointer: '/url', origin: 'https://evil.example' };
    expect(matchOf(onEvil, { url: 'https://evil.example./' })).toBe('holds');
    expect(matchOf(onEvil, { url: 'https://evil.example.:8443/' })).toBe('fails');
    expect(matchOf({ ...onEvil, origin: 'https://evil.example.:8443' }, { url: 'https://evil.example:8443/x' })).toBe('holds');
    expect(matchOf({ ...onEvil, origin: 'https://evil.example.' }, { url: 'https://evil.example/x' })).toBe('holds');
    // One dot only: `evil.example..` is not a name DNS resolves, and not evil.example.
    expect(matchOf(onEvil, { url: 'https://evil.example../' })).toBe('fails');
    expect(matchOf({ ...onEvil, origin: 'http://[::1]:8080' }, { url: 'http://[::1]:8080/' })).toBe('holds');
  });
});
