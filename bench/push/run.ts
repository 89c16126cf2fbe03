import 'fake-indexeddb/auto';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import '../../src/zod-config.ts';
import { makeConversation, makePausePoint } from '../../src/engine/testing/make-records.ts';
import { PushService } from '../../src/push/push-service.ts';
import { savePushSettings } from '../../src/push/push-settings-store.ts';
import { PausepointDb } from '../../src/storage/db.ts';
import { startFakeNtfy } from '../../tests/fake-ntfy/index.ts';
import { startPouchdbServer } from '../../tests/couch/pouchdb-server.ts';
import { p50p90 } from '../latency/percentile.ts';
import { startChromiumApp } from '../sync/chromium-app.ts';
import { linkToActionable } from './link-in-chromium.ts';

/**
 * `npm run bench:push`:
 * 1. A card becomes pending → its push reaches the (loopback) ntfy server,
 *    p50 over 20 rounds, in Node on fake-indexeddb, with the grace period at
 *    0 s (the figure to compare with "grace period + 250 ms").
 * 2. In real Chromium, a phone page opened on the push's link → its card
 *    actionable, with the card's document on the server and not yet on the
 *    phone (link-in-chromium.ts; target ≤ 1.5 s). BENCH_PUSH_CHROMIUM=0
 *    leaves it out, =only runs it alone; BENCH_PUSH_DIST=<dir> serves that
 *    build instead of making one (an A/B of two builds).
 */
const ROUNDS = Number(process.env.BENCH_PUSH_ROUNDS ?? 20);
const LINK_ROUNDS = Number(process.env.BENCH_PUSH_LINK_ROUNDS ?? 8);
const CHROMIUM = process.env.BENCH_PUSH_CHROMIUM ?? '1';
const USER = { username: 'bench', password: 'bench-password' };
// Serves an existing build instead of making one, to compare two builds.
const PREBUILT = process.env.BENCH_PUSH_DIST ? resolve(process.env.BENCH_PUSH_DIST) : undefined;

console.log(`bench:push (Node ${process.version}, loopback fake ntfy; load ${loadavg()[0]!.toFixed(1)})`);
const ntfy = await startFakeNtfy();
try {
  if (CHROMIUM !== 'only') {
    const times = await pendingToPublish();
    console.log(`1. card pending → publish received, grace 0 s (Node, fake-indexeddb), p50 / p90: ${p50p90(times)} over ${ROUNDS} (target p50 ≤ grace + 250 ms)`);
  }
  if (CHROMIUM !== '0') {
    const server = await startPouchdbServer();
    const app = await startChromiumApp(PREBUILT);
    try {
      const times = await linkToActionable(app, server, ntfy, LINK_ROUNDS, USER);
      console.log(`2. phone page opened on the link → card actionable (Chromium, card on the server, not yet on the phone), p50 / p90: ${p50p90(times)} over ${times.length} (target p50 ≤ 1,500 ms; load ${loadavg()[0]!.toFixed(1)})`);
    } finally {
      await app.close();
      await server.close();
    }
  }
} finally {
  await ntfy.close();
}

async function pendingToPublish(): Promise<number[]> {
  const db = new PausepointDb(`bench-push-${Date.now()}`);
  await savePushSettings(db, { v: 1, serverUrl: ntfy.url, topic: 'benchbenchbenchbenchbenchbench01', sayRisk: false, graceSeconds: 0, savedAt: Date.now() }, '');
  await db.conversations.put(makeConversation({ id: 'c1' }));
  const service = new PushService(db, {
    fetch: (input, init) => fetch(input, init),
    appUrl: 'http://localhost/',
    runsHere: () => true,
    ids: () => crypto.randomUUID(),
  });
  service.start();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const before = ntfy.published.length;
    const started = performance.now();
    await db.pausePoints.put(makePausePoint({ id: `p${round}`, conversationId: 'c1', status: 'pending', createdAt: Date.now(), expiresAt: null }));
    await ntfy.waitForPublishes(before + 1, 10_000);
    times.push(performance.now() - started);
    await db.pausePoints.update(`p${round}`, { status: 'resolved', resolution: 'approve', resolvedAt: Date.now() });
  }
  service.stop();
  await db.delete();
  return times;
}
