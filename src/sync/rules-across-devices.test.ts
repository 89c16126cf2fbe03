import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { setRuleEnabled } from '../storage/approval-rules-repo.ts';
import { pairingBlobFrom } from './crypto/pairing-link.ts';
import { eventually, type SyncedDevice } from './testing/synced-device.ts';
import { syncTestbed, TEST_PASSPHRASE, TEST_USER } from './testing/sync-testbed.ts';

/**
 * A rule's state across two of the person's devices, through a real
 * CouchDB-protocol server (pouchdb-server, as sync-across-devices.test.ts):
 * the review's sequences, where a rule removed or disabled on one device came
 * back through the other's use of its copy.
 */

const bed = syncTestbed('rules');
const USER = TEST_USER;

const transfer = (amount: number, to: string) => ({ calls: [{ name: 'transfer', args: { amount, to } }] });

const device = bed.device;

/** The laptop makes "allow transfer" and turns sync on; the phone joins and gets the rule. */
async function pairedWithRule() {
  const db = await bed.database();
  const laptop = await device('Laptop');
  const rule = await laptop.engine.addRule({ effect: 'allow', tool: 'transfer', scope: { kind: 'everywhere' }, source: 'settings' }, laptop.by());
  expect(await laptop.sync.turnOn({ deviceName: 'Laptop', serverUrl: bed.server.url, database: db, ...USER, passphrase: TEST_PASSPHRASE })).toEqual({ ok: true });
  const phone = await device('Phone');
  const invite = await laptop.sync.addDevice();
  expect(await phone.sync.join({ blob: pairingBlobFrom(new URL(invite.link).hash)!, code: invite.code, deviceName: 'Phone' })).toEqual({ ok: true });
  await eventually('the rule reaches the phone', async () => (await phone.db.approvalRules.get(rule.id))?.enabled === true);
  return { laptop, phone, rule };
}

/** The phone, not syncing, runs a transfer its copy of the rule allows: a use of the rule there. */
async function phoneUsesItsCopy(phone: SyncedDevice, ruleId: string) {
  phone.model.push(transfer(250, 'Bob'), { text: 'Sent.' });
  const { conversationId } = await phone.engine.send(null, 'pay Bob');
  await phone.engine.whenIdle();
  expect(phone.executions).toEqual([{ amount: 250, to: 'Bob' }]);
  expect((await phone.db.approvalRules.get(ruleId))?.uses).toBe(1);
  return conversationId;
}

/** The laptop's next transfer: asked, with a card, and nothing sent. */
async function laptopsNextTransferAsks(laptop: SyncedDevice) {
  laptop.model.push(transfer(9_000, 'Mallory'));
  await laptop.engine.send(null, 'pay Mallory');
  await laptop.engine.whenIdle();
  const pending = await laptop.db.pausePoints.where('status').equals('pending').toArray();
  expect(pending.map((p) => p.title)).toEqual(['Send 9000 to Mallory?']);
  expect(laptop.executions).toEqual([]);
}

// Two devices, a server and PBKDF2 at 600,000 iterations per setup: seconds per test, more on a loaded machine.
describe('a rule across devices', { timeout: 60_000 }, () => {
  it('removed on the laptop, then used on the phone: the laptop’s next transfer asks, and the rule is gone on both', async () => {
    const { laptop, phone, rule } = await pairedWithRule();
    phone.sync.stop();
    await laptop.engine.removeRule(rule.id, laptop.by());
    const phoneConversation = await phoneUsesItsCopy(phone, rule.id);
    await phone.sync.start();
    await eventually('the laptop has what the phone pushed', async () => (await laptop.db.conversations.get(phoneConversation)) !== undefined);
    // Give the laptop a full round more: whatever the phone had to say of the rule has arrived by now.
    await laptop.sync.retryNow();
    await laptopsNextTransferAsks(laptop);
    expect(await laptop.db.approvalRules.get(rule.id)).toBeUndefined();
    await eventually('the removal reaches the phone', async () => (await phone.db.approvalRules.get(rule.id)) === undefined);
    // The phone's use published nothing of the rule: the laptop holds the events it wrote, and no other.
    expect((await laptop.db.ruleEvents.where('ruleId').equals(rule.id).toArray()).map((e) => [e.device, e.change.kind])).toEqual([
      [laptop.id, 'created'],
      [laptop.id, 'removed'],
    ]);
  });

  it('disabled on the laptop while used on the phone: stays disabled on both', async () => {
    const { laptop, phone, rule } = await pairedWithRule();
    phone.sync.stop();
    await setRuleEnabled(laptop.db, rule.id, false, { by: laptop.by() });
    const phoneConversation = await phoneUsesItsCopy(phone, rule.id);
    await phone.sync.start();
    await eventually('the laptop has what the phone pushed', async () => (await laptop.db.conversations.get(phoneConversation)) !== undefined);
    await eventually('the disable reaches the phone', async () => (await phone.db.approvalRules.get(rule.id))?.enabled === false);
    await laptop.sync.retryNow();
    expect((await laptop.db.approvalRules.get(rule.id))?.enabled).toBe(false);
    await laptopsNextTransferAsks(laptop);
    // The phone keeps its own count of uses; the laptop never saw one.
    expect((await phone.db.approvalRules.get(rule.id))?.uses).toBe(1);
    expect((await laptop.db.approvalRules.get(rule.id))?.uses).toBeUndefined();
  });

  it('an enable pressed on the phone without having seen the laptop’s second disable loses to it', async () => {
    const { laptop, phone, rule } = await pairedWithRule();
    await setRuleEnabled(laptop.db, rule.id, false, { by: laptop.by() });
    await eventually('the first disable reaches the phone', async () => (await phone.db.approvalRules.get(rule.id))?.enabled === false);
    phone.sync.stop();
    // The laptop switches it on and off again while the phone, not syncing, switches it on.
    await setRuleEnabled(laptop.db, rule.id, true, { by: laptop.by() });
    await setRuleEnabled(laptop.db, rule.id, false, { by: laptop.by() });
    await setRuleEnabled(phone.db, rule.id, true, { by: phone.by() });
    await phone.sync.start();
    await eventually('the phone folds in the laptop’s events', async () => (await phone.db.ruleEvents.where('ruleId').equals(rule.id).count()) === 5);
    await eventually('the laptop folds in the phone’s enable', async () => (await laptop.db.ruleEvents.where('ruleId').equals(rule.id).count()) === 5);
    expect((await phone.db.approvalRules.get(rule.id))?.enabled).toBe(false);
    expect((await laptop.db.approvalRules.get(rule.id))?.enabled).toBe(false);
    await laptopsNextTransferAsks(laptop);
  });
});
