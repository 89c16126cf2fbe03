import type { PausePoint } from '../engine/records/pause-point.ts';
import { publish, type Fetch } from './ntfy-client.ts';
import type { PushConfig } from './push-config.ts';
import { PushError } from './push-error.ts';
import { buildPushMessage } from './push-message.ts';
import type { PushableCard, PushReason, SendOutcome } from './push-schedule.ts';

/** What one push came to, for the status line, Settings and the audit log: never what it said. */
export interface PushResult {
  at: number;
  cardId: string;
  conversationId: string;
  reason: PushReason;
  /** The server's origin (`https://ntfy.sh`): the topic is a secret and stays out of the log. */
  serverOrigin: string;
  ok: boolean;
  /** Why it failed, in words (push-error.ts); absent when it was sent. */
  error?: string;
}

/** The schedule's view of a pending card: its id, times and risk label, and nothing else of it. */
export function pushableCard(pause: Pick<PausePoint, 'id' | 'createdAt' | 'risk' | 'expiresAt' | 'onTimeout'>): PushableCard {
  return {
    id: pause.id,
    createdAt: pause.createdAt,
    risk: pause.risk,
    declineAt: pause.onTimeout === 'decline' && pause.expiresAt !== null ? pause.expiresAt : undefined,
  };
}

export interface PushSenderOptions {
  fetch: Fetch;
  config: () => PushConfig | undefined;
  token: () => string;
  /** Where the app lives (origin and base path): the push's link opens it there. */
  appUrl: string;
  /** How many cards are pending now, for "3 decisions are waiting". */
  pendingCount: () => number;
  conversationOf: (cardId: string) => string;
  now: () => number;
  onResult: (result: PushResult) => void | Promise<void>;
}

/** Sends one card's push as the schedule asks, and reports what came of it. */
export function createPushSender(options: PushSenderOptions): (card: PushableCard, reason: PushReason) => Promise<SendOutcome> {
  return async (card, reason) => {
    const config = options.config();
    if (!config) return 'failed';
    const message = buildPushMessage({
      topic: config.topic,
      cardId: card.id,
      pending: Math.max(1, options.pendingCount()),
      appUrl: options.appUrl,
      risk: config.sayRisk ? card.risk : undefined,
      declineInMs: reason === 'decline_warning' && card.declineAt !== undefined ? card.declineAt - options.now() : undefined,
    });
    const base = { cardId: card.id, conversationId: options.conversationOf(card.id), reason, serverOrigin: new URL(config.serverUrl).origin };
    try {
      await publish(options.fetch, { serverUrl: config.serverUrl, token: options.token() }, message);
    } catch (error) {
      const failure = error instanceof PushError ? error : new PushError('unreachable', 'The push could not be sent.');
      await options.onResult({ ...base, at: options.now(), ok: false, error: failure.message });
      return failure.retryable ? 'retry' : 'failed';
    }
    await options.onResult({ ...base, at: options.now(), ok: true });
    return 'sent';
  };
}
