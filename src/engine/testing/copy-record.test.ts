import { describe, expect, it } from 'vitest';
import { copyRecord } from './copy-record.ts';
import { makePausePoint } from './make-records.ts';

/** Every object reachable from `a` that is also reachable from `b`. */
function sharedObjects(a: unknown, b: unknown): unknown[] {
  const seen = new Set<unknown>();
  const walk = (value: unknown, visit: (v: object) => void) => {
    if (typeof value !== 'object' || value === null) return;
    visit(value);
    for (const child of Object.values(value)) walk(child, visit);
  };
  walk(a, (v) => seen.add(v));
  const shared: unknown[] = [];
  walk(b, (v) => {
    if (seen.has(v)) shared.push(v);
  });
  return shared;
}

describe('copyRecord', () => {
  it('copies a record deeply: equal, with no object shared', () => {
    const record = makePausePoint({ payload: { to: ['a@example.com'], nested: { deep: [1, { x: null }] }, gone: undefined } });
    const copied = copyRecord(record);
    expect(copied).toStrictEqual(record);
    expect(sharedObjects(record, copied)).toEqual([]);
  });

  it('falls back to structuredClone for values that are not plain', () => {
    const when = new Date(0);
    const copied = copyRecord({ when, tags: new Set(['a']) });
    expect(copied.when).toBeInstanceOf(Date);
    expect(copied.when).not.toBe(when);
    expect(copied.when.getTime()).toBe(0);
    expect(copied.tags).toEqual(new Set(['a']));
  });

  it('keeps a `__proto__` key as data and never changes the prototype', () => {
    const hostile: unknown = JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}');
    const copied = copyRecord(hostile) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
    expect(Object.hasOwn(copied, '__proto__')).toBe(true);
    expect(copied['polluted']).toBeUndefined();
    expect(copied).toStrictEqual(hostile);
  });
});
