import 'fake-indexeddb/auto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import '../../src/zod-config.ts';
import { makeConversation, makePausePoint } from '../../src/engine/testing/make-records.ts';
import { PushService } from '../../src/push/push-service.ts';
import { savePushSettings } from '../../src/push/push-settings-store.ts';
import { PausepointDb } from '../../src/storage/db.ts';
import { startFakeNtfy } from '../../tests/fake-ntfy/index.ts';

/**
 * `npm run bench:push`, first part: a card becomes pending → its push
 * reaches the (loopback) ntfy server, p50 over 20 rounds, in Node on
 * fake-indexeddb, with the grace period at 0 s (the figure to compare with
 * "grace period + 250 ms"). The second part of the bench (a phone
 * page opened on the link → card actionable, in Chromium) is not here yet.
 */
const ROUNDS = Number(process.env.BENCH_PUSH_ROUNDS ?? 20);

const ntfy = await startFakeNtfy();
const db = new PausepointDb(`bench-push-${Date.now()}`);
await savePushSettings(db, { v: 1, serverUrl: ntfy.url, topic: 'benchbenchbenchbenchbenchbench01', sayRisk: false, graceSeconds: 0, savedAt: Date.now() }, '');
const conversation = makeConversation({ id: 'c1' });
await db.conversations.put(conversation);
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
await ntfy.close();
await db.delete();

times.sort((a, b) => a - b);
const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
console.log(`bench:push (Node ${process.version}, fake-indexeddb, loopback fake ntfy; load ${loadavg()[0]!.toFixed(1)})`);
console.log(`card pending → publish received, grace 0 s: p50 ${at(0.5).toFixed(1)} ms, p90 ${at(0.9).toFixed(1)} ms over ${ROUNDS} (target ≤ grace + 250 ms)`);
