import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { ACTIVE_STATES } from '../engine/records/index.ts';
import { makeConversation, makeRule } from '../engine/testing/make-records.ts';
import { readRules, setRuleEnabled } from './approval-rules-repo.ts';
import { adoptStoredRules, RULE_EVENT_STORES } from './rule-events-repo.ts';
import { PausepointDb } from './db.ts';
import { readApiKeys, readSettings } from './settings-repo.ts';

/** A database as version 3 left it, holding `rows` in its settings table; returns its name. */
async function version3Database(rows: { key: string; value: unknown }[]): Promise<string> {
  const v3 = await declaredUpTo(3);
  await v3.table('settings').bulkPut(rows);
  v3.close();
  return v3.name;
}

/** What each version of the app declared, as it declared it (history: never edited). PausepointDb now declares only 4 and 14. */
const HISTORY: [version: number, stores: Record<string, string>][] = [
  [1, { conversations: 'id, updatedAt', messages: 'id, [conversationId+seq]', pausePoints: 'id, conversationId, status, createdAt, toolCallId', ledger: 'id, conversationId', notes: 'id, updatedAt', settings: 'key' }],
  [2, { conversations: 'id, updatedAt, state.kind' }],
  [3, { approvalRules: 'id, tool' }],
  [4, {}],
  [5, { mcpServers: 'id' }],
  [7, { mcpOAuth: 'serverId' }],
  [9, { auditEvents: 'id, [at+id]' }],
  [10, { syncDevices: 'id', remoteDecisions: 'pausePointId, conversationId, state', syncDocs: 'key' }],
  [11, { attachments: 'id' }],
  [12, { messages: 'id, [conversationId+seq], [createdAt+usage.model]' }],
  [13, { searchTerms: 'term', searchBlocks: 'id', searchCovered: 'conversationId', searchState: 'key' }],
  [14, { ruleEvents: 'id, ruleId, [device+seq]' }],
];

/** A new database named `name` as the app declared it up to `version`, every version in turn. */
async function declaredUpTo(version: number, name = `pausepoint-test-${crypto.randomUUID()}`): Promise<Dexie> {
  const db = new Dexie(name);
  for (const [v, stores] of HISTORY.filter(([v]) => v <= version)) db.version(v).stores(stores);
  await db.open();
  return db;
}

/** The object stores, key paths and indexes IndexedDB itself holds for the database `db` has open. */
function installedSchema(db: Dexie): string[] {
  const idb = db.backendDB();
  const names = [...idb.objectStoreNames];
  const tx = idb.transaction(names, 'readonly');
  return names.map((name) => {
    const store = tx.objectStore(name);
    const indexes = [...store.indexNames].map((index) => `${index}=${JSON.stringify(store.index(index).keyPath)}`);
    return `${name} ${JSON.stringify(store.keyPath)} ${indexes.join(' ')}`;
  });
}

/** The settings row as the app wrote it before keys were stored per origin (history: never edited). */
const legacyRow = JSON.parse(readFileSync(join(import.meta.dirname, '../../tests/fixtures/storage/v1/settings.json'), 'utf8')) as Record<string, unknown>;

describe('PausepointDb', () => {
  it('finds conversations left active by their state index, and upgrades a version 1 database in place', async () => {
    const v1 = await declaredUpTo(1);
    const name = v1.name;
    await v1.table('conversations').bulkPut([
      makeConversation({ id: 'idle', state: { kind: 'idle' } }),
      makeConversation({ id: 'running', state: { kind: 'running', owner: 'tab-A', since: 1 } }),
      makeConversation({ id: 'paused', state: { kind: 'paused', pending: 1 } }),
      makeConversation({ id: 'offline', state: { kind: 'waiting_for_network', owner: 'tab-B', since: 1 } }),
    ]);
    v1.close();

    const db = new PausepointDb(name);
    const active = await db.conversations.where('state.kind').anyOf([...ACTIVE_STATES]).primaryKeys();
    expect(active.sort()).toEqual(['offline', 'running']);
    expect(await db.conversations.count()).toBe(4);
    db.close();
    await Dexie.delete(name);
  });

  it.each(HISTORY.map(([version]) => version))(
    'a database version %i left opens with the object stores and indexes of every version declared in turn, as a new one does',
    async (version) => {
      const old = await declaredUpTo(version);
      old.close();
      const upgraded = new PausepointDb(old.name);
      const fresh = new PausepointDb(`pausepoint-test-${crypto.randomUUID()}`);
      await Promise.all([upgraded.open(), fresh.open()]);
      const everyVersion = await declaredUpTo(14);

      expect(installedSchema(upgraded)).toEqual(installedSchema(everyVersion));
      expect(installedSchema(fresh)).toEqual(installedSchema(everyVersion));
      for (const db of [upgraded, fresh, everyVersion]) {
        db.close();
        await Dexie.delete(db.name);
      }
    },
  );

  it('version 4 moves the one stored API key to the origin of the stored base URL, and out of the settings row', async () => {
    const name = await version3Database([{ key: 'settings', value: legacyRow }, { key: 'deviceId', value: 'device-1' }]);
    const db = new PausepointDb(name);

    expect(await readSettings(db)).toMatchObject({ provider: 'openrouter', baseUrl: 'https://openrouter.ai/api/v1', apiKey: legacyRow.apiKey });
    expect(await readApiKeys(db)).toEqual(new Map([['https://openrouter.ai', legacyRow.apiKey]]));
    const { apiKey: _, ...rest } = legacyRow;
    expect((await db.settings.get('settings'))?.value).toEqual(rest);
    expect((await db.settings.get('deviceId'))?.value).toBe('device-1');
    db.close();
    await Dexie.delete(name);
  });

  it.each([
    ['an empty key', { ...legacyRow, apiKey: '' }, new Map()],
    ['a keyless local endpoint', { ...legacyRow, provider: 'ollama', baseUrl: 'http://localhost:11434/v1', apiKey: '' }, new Map()],
    ['a local endpoint with a key', { ...legacyRow, provider: 'lmstudio', baseUrl: 'http://localhost:1234/v1', apiKey: 'lm' }, new Map([['http://localhost:1234', 'lm']])],
  ])('version 4 with %s', async (_case, value, keys) => {
    const name = await version3Database([{ key: 'settings', value }]);
    const db = new PausepointDb(name);
    expect(await readApiKeys(db)).toEqual(keys);
    expect((await db.settings.get('settings'))?.value).not.toHaveProperty('apiKey');
    db.close();
    await Dexie.delete(name);
  });

  it('version 14 adds rule events; a rule stored before them gets the event that made it when first changed or synced', async () => {
    const v13 = await declaredUpTo(13);
    const name = v13.name;
    await v13.table('settings').put({ key: 'deviceId', value: 'device-1' });
    await v13.table('approvalRules').bulkPut([
      makeRule({ id: 'later', createdAt: 2_000, enabled: false, lastUsedAt: 3_000, uses: 2 }),
      makeRule({ id: 'first', createdAt: 1_000, dryRun: true }),
      { id: 'bare' },
    ]);
    v13.close();

    const db = new PausepointDb(name);
    const before = await readRules(db, () => {});
    expect(await db.ruleEvents.count()).toBe(0);
    // A change of one rule makes it first; a sync's push makes the rest (rule-events-repo.ts adoptStoredRules).
    await setRuleEnabled(db, 'later', true);
    await db.transaction('rw', [...RULE_EVENT_STORES], () => adoptStoredRules(db));
    const { lastUsedAt: _l, uses: _u, ...later } = makeRule({ id: 'later', createdAt: 2_000, enabled: false });
    const { lastUsedAt: _l2, ...first } = makeRule({ id: 'first', createdAt: 1_000, dryRun: true });
    expect(await db.ruleEvents.orderBy('[device+seq]').toArray()).toEqual([
      { v: 1, id: 'device-1:1', ruleId: 'later', device: 'device-1', seq: 1, at: 2_000, change: { kind: 'created', rule: later } },
      { v: 1, id: 'device-1:2', ruleId: 'later', device: 'device-1', seq: 2, at: expect.any(Number), change: { kind: 'enabled', undoes: [] } },
      { v: 1, id: 'device-1:3', ruleId: 'first', device: 'device-1', seq: 3, at: 1_000, change: { kind: 'created', rule: first } },
    ]);
    // Nothing else changes: the rows read as before (but the switch), their use kept, the unreadable one listed as unreadable.
    const after = await readRules(db, () => {});
    expect(after.rules).toEqual(before.rules.map((rule) => (rule.id === 'later' ? { ...rule, enabled: true } : rule)));
    expect(after.rules.find((rule) => rule.id === 'later')?.uses).toBe(2);
    expect(after.unreadable.map((u) => u.id)).toEqual(['bare']);
    db.close();
    await Dexie.delete(name);
  });

  it('version 4 leaves a row it cannot read as it was: its key was never used, and is never sent anywhere', async () => {
    const broken = { ...legacyRow, baseUrl: 'not a url' };
    const name = await version3Database([{ key: 'settings', value: broken }]);
    const db = new PausepointDb(name);
    expect(await readApiKeys(db)).toEqual(new Map());
    expect((await db.settings.get('settings'))?.value).toEqual(broken);
    expect(await readSettings(db, () => {})).toBeUndefined();
    db.close();
    await Dexie.delete(name);
  });
});
