import { describe, expect, test } from 'vitest';
import { parseRoute, routeHref, type Route } from './route.ts';

describe('routes', () => {
  test.each<[string, Route]>([
    ['', { view: 'new' }],
    ['#/', { view: 'new' }],
    ['#/new', { view: 'new' }],
    ['#/approvals', { view: 'approvals' }],
    ['#/audit', { view: 'audit' }],
    ['#/settings', { view: 'settings' }],
    ['#/c/abc', { view: 'conversation', id: 'abc' }],
    ['#/c/abc/card/p1', { view: 'conversation', id: 'abc', cardId: 'p1' }],
    ['#/c/abc/message/m1', { view: 'conversation', id: 'abc', messageId: 'm1' }],
    ['#/c/abc/elsewhere/m1', { view: 'conversation', id: 'abc' }],
    ['#/c/%E0%A4%A', { view: 'new' }],
    ['#/__proto__', { view: 'new' }],
  ])('%s', (hash, route) => {
    expect(parseRoute(hash)).toEqual(route);
  });

  test('round-trips ids with reserved characters', () => {
    const route: Route = { view: 'conversation', id: 'a/b c', cardId: '#1' };
    expect(parseRoute(routeHref(route))).toEqual(route);
    const toMessage: Route = { view: 'conversation', id: 'a/b c', messageId: 'm/1?' };
    expect(parseRoute(routeHref(toMessage))).toEqual(toMessage);
  });
});
