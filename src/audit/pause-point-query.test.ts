import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PausePoint } from '../engine/records/pause-point.ts';
import type { PausepointDb } from '../storage/db.ts';
import { useTestDb } from '../storage/testing/open-test-db.ts';
import { matchesFilters, type AuditFilters } from './audit-filters.ts';
import { scanPausePoints, type ScanOrder } from './pause-point-query.ts';

let db: PausepointDb;
let all: PausePoint[];

/** 300 pause points whose createdAt values repeat in runs (up to 7 per tick), so pages split ties. */
function records(): PausePoint[] {
  const out: PausePoint[] = [];
  for (let index = 0; index < 300; index++) {
    out.push({
      v: 1,
      id: `pp-${((index * 7919) % 1000).toString().padStart(4, '0')}`,
      conversationId: `conv-${index % 5}`,
      turnIndex: index,
      title: index % 10 === 0 ? `Refund order ${index}` : `Send email ${index}`,
      description: 'x',
      options: null,
      payload: null,
      kind: index % 3 === 0 ? 'choice' : 'approval',
      status: index % 4 === 0 ? 'pending' : 'resolved',
      resolution: null,
      resolvedAt: null,
      createdAt: 1_000 + Math.floor(index / 7) * 10,
      origin: 'gate',
      toolCallId: `call-${index}`,
      toolName: index % 2 === 0 ? 'send_email' : 'refund',
      expiresAt: null,
    });
  }
  return out;
}

useTestDb((fresh) => (db = fresh));
beforeEach(async () => {
  all = records();
  await db.pausePoints.bulkPut(all);
});

async function collect(filters: AuditFilters, order: ScanOrder, pageSize: number) {
  const scan = await scanPausePoints(db, filters, { order, pageSize });
  const ids: string[] = [];
  let scanned = 0;
  for await (const page of scan.pages) {
    ids.push(...page.rows.map((pp) => pp.id));
    scanned += page.scanned;
    expect(page.rows.length).toBeLessThanOrEqual(pageSize);
  }
  return { ids, total: scan.total, scanned };
}

function expected(filters: AuditFilters, order: ScanOrder): string[] {
  const sorted = all.filter(matchesFilters(filters)).sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  return (order === 'newest_first' ? sorted.reverse() : sorted).map((pp) => pp.id);
}

describe('scanPausePoints', () => {
  const cases: [string, AuditFilters][] = [
    ['no filter', {}],
    ['a date range', { from: 1_100, to: 1_300 }],
    ['status (index, few)', { status: 'pending' }],
    ['a conversation plus text', { conversationId: 'conv-2', text: 'REFUND' }],
    ['kind and tool', { kind: 'choice', toolName: 'refund' }],
    ['an empty range', { from: 5_000, to: 4_000 }],
  ];
  for (const [name, filters] of cases) {
    for (const order of ['oldest_first', 'newest_first'] as const) {
      it(`pages ${name}, ${order}, with ties across page boundaries, each record once`, async () => {
        for (const pageSize of [1, 4, 50, 1000]) {
          const { ids, total, scanned } = await collect(filters, order, pageSize);
          expect(ids).toEqual(expected(filters, order));
          expect(scanned).toBe(total);
        }
      });
    }
  }

  it('reads through whichever index selects fewer records', async () => {
    // 75 pending of 300: the status index is read, not all 300 by date.
    expect((await scanPausePoints(db, { status: 'pending' }, { order: 'oldest_first', pageSize: 10 })).total).toBe(75);
    // A date range of 21 records beats the status index's 75.
    const narrow = await scanPausePoints(db, { status: 'pending', from: 1_000, to: 1_020 }, { order: 'oldest_first', pageSize: 10 });
    expect(narrow.total).toBe(21);
  });

  it('survives a tick shared by more records than a page holds', async () => {
    await db.pausePoints.bulkPut(all.map((pp) => ({ ...pp, createdAt: 7 })));
    all = all.map((pp) => ({ ...pp, createdAt: 7 }));
    const { ids } = await collect({}, 'newest_first', 16);
    expect(ids).toEqual(expected({}, 'newest_first'));
  });

  it('reports stored records that fail validation, and skips them', async () => {
    await db.pausePoints.put({ id: 'pp-bad', createdAt: 1_000, status: 'resolved' } as never);
    const scan = await scanPausePoints(db, {}, { order: 'oldest_first', pageSize: 500 });
    const pages = [];
    for await (const page of scan.pages) pages.push(page);
    expect(pages.flatMap((page) => page.unreadable).map((record) => record.id)).toEqual(['pp-bad']);
    expect(pages.flatMap((page) => page.rows)).toHaveLength(300);
  });
});
