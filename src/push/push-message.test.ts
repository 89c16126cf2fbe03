import { afterEach, describe, expect, it } from 'vitest';
import { makePausePoint } from '../engine/testing/make-records.ts';
import { PAUSE_KINDS, RISKS, type PausePoint } from '../engine/records/pause-point.ts';
import { startFakeNtfy, type FakeNtfy } from '../../tests/fake-ntfy/index.ts';
import { createPushSender, pushableCard, type PushResult } from './push-sender.ts';
import type { PushConfig } from './push-config.ts';
import type { PushReason } from './push-schedule.ts';

/** Words that appear only in the card, its conversation and its devices: none may reach the push server. */
const SECRET_WORDS = {
  title: 'Wire4200EurosToZanzibar',
  description: 'QuarterlyInvoiceForGlobex',
  tool: 'send_payment_xyzzy',
  argument: 'IBANDE89370400440532013000',
  argumentName: 'recipientAccountPlugh',
  option: 'OptionMauveElephant',
  conversation: 'SecretMergerTalksWithInitech',
  device: 'AdasWorkLaptopFrobozz',
  phone: 'AdasPixelPhoneGrue',
  reason: 'BecauseNarwhalBacon',
};

let ntfy: FakeNtfy;
afterEach(async () => ntfy?.close());

function cardOf(kind: PausePoint['kind'], risk: PausePoint['risk'], origin: PausePoint['origin']): PausePoint {
  return makePausePoint({
    id: `card-${kind}-${risk}-${origin}`,
    kind,
    origin,
    risk,
    title: `${SECRET_WORDS.title} via ${SECRET_WORDS.conversation}`,
    description: `${SECRET_WORDS.description} — ${SECRET_WORDS.device} asks ${SECRET_WORDS.phone}`,
    toolName: SECRET_WORDS.tool,
    payload: { [SECRET_WORDS.argumentName]: SECRET_WORDS.argument },
    options: kind === 'choice' ? [SECRET_WORDS.option] : null,
    reason: SECRET_WORDS.reason,
    decidedBy: { tabId: 't', deviceId: 'd', label: SECRET_WORDS.device },
    expiresAt: 10_000_000,
    onTimeout: 'decline',
  });
}

const config = (url: string, sayRisk: boolean): PushConfig => ({ v: 1, serverUrl: url, topic: 'a1b2c3d4e5f60718293a4b5c6d7e8f90', sayRisk, graceSeconds: 20, savedAt: 1 });

describe('what a push says', () => {
  it('names none of the card’s words, for every kind, origin, risk and reason, with and without Say how risky', async () => {
    ntfy = await startFakeNtfy();
    const results: PushResult[] = [];
    let sent = 0;
    for (const sayRisk of [false, true]) {
      for (const kind of PAUSE_KINDS) {
        for (const risk of [...RISKS, undefined]) {
          for (const origin of ['model', 'gate', 'unknown_outcome', 'elicitation', 'limit'] as const) {
            const card = cardOf(kind, risk, origin);
            const send = createPushSender({
              fetch: (input, init) => fetch(input, init),
              config: () => config(ntfy.url, sayRisk),
              token: () => '',
              appUrl: 'https://app.example/pausepoint/',
              pendingCount: () => 2,
              conversationOf: () => card.conversationId,
              now: () => 5_000_000,
              onResult: (result) => void results.push(result),
            });
            for (const reason of ['new', 'reminder', 'decline_warning'] as PushReason[]) {
              expect(await send(pushableCard(card), reason)).toBe('sent');
              sent++;
            }
          }
        }
      }
    }
    expect(ntfy.published).toHaveLength(sent);
    const everything = JSON.stringify([ntfy.published.map((p) => p.raw), results]);
    for (const word of Object.values(SECRET_WORDS)) expect(everything).not.toContain(word);
    for (const publish of ntfy.published) {
      expect(publish.title).toBe('Pausepoint');
      expect(publish.message).toMatch(/^2 decisions are waiting(\. Declined automatically in \d+ (min|h) unless you decide\.)?$/);
      expect(publish.click).toMatch(/^https:\/\/app\.example\/pausepoint\/#card=card-/);
      expect(publish.form).toBe('json');
    }
    // Without Say how risky, no priority or tag says anything of the card.
    const plain = ntfy.published.slice(0, sent / 2);
    expect(plain.every((p) => p.priority === undefined && p.tags === undefined)).toBe(true);
    const risky = ntfy.published.slice(sent / 2);
    expect(new Set(risky.map((p) => p.priority))).toEqual(new Set([2, 3, 5, undefined]));
  });

  it('says one decision without a count, and sends the token as a Bearer header', async () => {
    ntfy = await startFakeNtfy({ tokens: { tk_secret: ['a1b2c3d4e5f60718293a4b5c6d7e8f90'] } });
    const send = createPushSender({
      fetch: (input, init) => fetch(input, init),
      config: () => config(`${ntfy.url}/`, false),
      token: () => 'tk_secret',
      appUrl: 'https://app.example/',
      pendingCount: () => 1,
      conversationOf: () => 'c',
      now: () => 1,
      onResult: () => {},
    });
    expect(await send({ id: 'p1', createdAt: 0 }, 'new')).toBe('sent');
    expect(ntfy.published[0]).toMatchObject({ message: 'A decision is waiting', authorization: 'Bearer tk_secret', click: 'https://app.example/#card=p1' });
  });

  it('reports 401, 403 and 429 as they are, and only 429 and 5xx as worth retrying', async () => {
    ntfy = await startFakeNtfy({ tokens: { tk_other: ['another-topic'] } });
    const results: PushResult[] = [];
    const sendWith = (token: string) =>
      createPushSender({
        fetch: (input, init) => fetch(input, init),
        config: () => config(ntfy.url, false),
        token: () => token,
        appUrl: 'https://app.example/',
        pendingCount: () => 1,
        conversationOf: () => 'c',
        now: () => 1,
        onResult: (result) => void results.push(result),
      });
    expect(await sendWith('')({ id: 'p', createdAt: 0 }, 'new')).toBe('failed');
    expect(await sendWith('tk_other')({ id: 'p', createdAt: 0 }, 'new')).toBe('failed');
    ntfy.failNext(429);
    expect(await sendWith('tk_other')({ id: 'p', createdAt: 0 }, 'new')).toBe('retry');
    ntfy.failNext(503);
    expect(await sendWith('tk_other')({ id: 'p', createdAt: 0 }, 'new')).toBe('retry');
    expect(results.map((r) => r.error)).toEqual([
      expect.stringContaining('wants an access token'),
      expect.stringContaining('does not let this token publish'),
      expect.stringContaining('too many requests'),
      expect.stringContaining('HTTP 503'),
    ]);
    expect(results.every((r) => r.serverOrigin === ntfy.url && !r.ok)).toBe(true);
  });
});
