import { liveQuery, type Subscription } from 'dexie';
import type { AuditEvent } from '../engine/records/audit-event.ts';
import type { Conversation, PausePoint } from '../engine/records/index.ts';
import type { PausepointDb } from '../storage/db.ts';
import { SETTINGS_KEY } from '../storage/settings-constants.ts';
import type { Fetch } from './ntfy-client.ts';
import { PUSH_CONFIG_KEY, PushConfig } from './push-config.ts';
import { createPushSender, pushableCard, type PushResult } from './push-sender.ts';
import { PushSchedule, type PushPlan, type PushTimers } from './push-schedule.ts';
import { PUSH_STATUS_KEY, pushStatusOf } from './push-status.ts';
import { PUSH_TOKEN_KEY, pushTokenFor } from './push-token.ts';
import { readViewingMessage, VIEWING_CHANNEL, VIEWING_STALE_MS, type ViewingMessage } from './viewing-message.ts';

export interface PushServiceOptions {
  fetch: Fetch;
  appUrl: string;
  /** Whether this device runs a conversation with this owner (the engine's devices port). */
  runsHere: (owner: Conversation['ownerDevice']) => boolean;
  ids: () => string;
  timers?: PushTimers;
  /** Defaults to the browser's BroadcastChannel; tests pass their own. */
  channel?: Pick<BroadcastChannel, 'onmessage' | 'close'>;
}

interface Snapshot {
  config: PushConfig | undefined;
  /** The token row's value, read for the config's origin only (push-token.ts). */
  token: unknown;
  reminderMinutes: number | undefined;
  pending: PausePoint[];
}

/**
 * Pushes this device's pending cards to the person's ntfy topic, as
 * PushSchedule decides when. Runs in one worker of the device at a time (the
 * holder of the `pausepoint:push` lock: push-host.ts), for the conversations
 * this device runs: the device that runs a conversation is the one that is
 * sure to be awake when its card appears. Each push's outcome goes to the
 * status row and, as time, server origin and success only, to the audit log.
 */
export class PushService {
  readonly #db: PausepointDb;
  readonly #options: PushServiceOptions;
  readonly #schedule: PushSchedule;
  readonly #viewing = new Map<string, ViewingMessage & { at: number }>();
  readonly #channel: Pick<BroadcastChannel, 'onmessage' | 'close'>;
  readonly #now: () => number;
  #subscription: Subscription | undefined;
  #refresh: ReturnType<typeof setInterval> | undefined;
  #snapshot: Snapshot = { config: undefined, token: undefined, reminderMinutes: undefined, pending: [] };

  constructor(db: PausepointDb, options: PushServiceOptions) {
    this.#db = db;
    this.#options = options;
    this.#now = options.timers ? () => options.timers!.now() : Date.now;
    const send = createPushSender({
      fetch: options.fetch,
      config: () => this.#snapshot.config,
      token: () => (this.#snapshot.config ? pushTokenFor(this.#snapshot.token, this.#snapshot.config.serverUrl) : ''),
      appUrl: options.appUrl,
      pendingCount: () => this.#snapshot.pending.length,
      conversationOf: (id) => this.#snapshot.pending.find((p) => p.id === id)?.conversationId ?? '',
      now: this.#now,
      onResult: (result) => this.#record(result),
    });
    this.#schedule = new PushSchedule(send, options.timers);
    this.#channel = options.channel ?? new BroadcastChannel(VIEWING_CHANNEL);
  }

  start(): void {
    this.#channel.onmessage = (event: MessageEvent<unknown>) => {
      const message = readViewingMessage(event.data);
      if (!message) return;
      this.#viewing.set(message.tabId, { ...message, at: this.#now() });
      this.#update();
    };
    // A tab that stopped saying it is visible stops counting: re-judge now and then.
    this.#refresh = setInterval(() => this.#update(), VIEWING_STALE_MS / 2);
    this.#subscription = liveQuery(() => this.#read()).subscribe({
      next: (snapshot) => {
        this.#snapshot = snapshot;
        this.#update();
      },
      error: (error: unknown) => console.error('Pausepoint: watching cards for pushes failed', error),
    });
  }

  stop(): void {
    this.#subscription?.unsubscribe();
    clearInterval(this.#refresh);
    this.#channel.close();
    this.#schedule.dispose();
  }

  async #read(): Promise<Snapshot> {
    const db = this.#db;
    return db.transaction('r', [db.settings, db.pausePoints, db.conversations], async () => {
      const [configRow, tokenRow, settingsRow] = await db.settings.bulkGet([PUSH_CONFIG_KEY, PUSH_TOKEN_KEY, SETTINGS_KEY]);
      const parsed = PushConfig.safeParse(configRow?.value);
      const pending = await db.pausePoints.where('status').equals('pending').toArray();
      const conversations = await db.conversations.bulkGet([...new Set(pending.map((p) => p.conversationId))]);
      const here = new Set(conversations.filter((c): c is Conversation => !!c && this.#options.runsHere(c.ownerDevice)).map((c) => c.id));
      const minutes = (settingsRow?.value as { reminderMinutes?: unknown } | undefined)?.reminderMinutes;
      return {
        config: parsed.success ? parsed.data : undefined,
        token: tokenRow?.value,
        reminderMinutes: typeof minutes === 'number' && minutes > 0 ? minutes : undefined,
        // Not `elicitation` cards: a running tool's question, gone when its run ends, is not worth waking a phone for.
        pending: pending.filter((p) => here.has(p.conversationId) && p.origin !== 'elicitation'),
      };
    });
  }

  #update(): void {
    const { config, reminderMinutes, pending } = this.#snapshot;
    const plan: PushPlan | null = config ? { graceMs: config.graceSeconds * 1000, reminderMs: reminderMinutes ? reminderMinutes * 60_000 : null } : null;
    this.#schedule.update(pending.map(pushableCard), this.#shownCards(pending), plan);
  }

  #shownCards(pending: readonly PausePoint[]): Set<string> {
    const now = this.#now();
    const shows = new Set<string>();
    for (const view of this.#viewing.values()) if (view.visible && view.shows && now - view.at < VIEWING_STALE_MS) shows.add(view.shows);
    return new Set(pending.filter((p) => shows.has('*') || shows.has(p.conversationId)).map((p) => p.id));
  }

  async #record(result: PushResult): Promise<void> {
    const event: AuditEvent = {
      v: 1,
      id: this.#options.ids(),
      at: result.at,
      kind: 'push_sent',
      pausePointId: result.cardId,
      conversationId: result.conversationId,
      reason: result.reason,
      serverOrigin: result.serverOrigin,
      ok: result.ok,
      ...(result.error ? { error: result.error } : {}),
    };
    try {
      await this.#db.transaction('rw', [this.#db.settings, this.#db.auditEvents], async () => {
        await this.#db.settings.put({ key: PUSH_STATUS_KEY, value: pushStatusOf(result) });
        await this.#db.auditEvents.add(event);
      });
    } catch (error) {
      console.error('Pausepoint: recording a push failed', error);
    }
  }
}
