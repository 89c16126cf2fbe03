import type { MessageDraft, StoragePort } from './storage-port.ts';
import type { AssistantMessage, Conversation } from './records/index.ts';

/** The port's methods that only read: they need nothing stored first. */
const READS: ReadonlySet<string> = new Set<keyof StoragePort>([
  'getConversation',
  'listMessages',
  'loadStep',
  'getPausePoint',
  'listPausePoints',
  'listPendingPausePoints',
  'loadCalls',
  'getLedgerEntry',
]);

/**
 * A model answer with tool calls, held back from storage until its calls are
 * settled: when every call waits for a person, the answer is stored with its
 * questions and the paused state in one transaction (`pauseConversation`'s
 * drafts); otherwise it is stored before anything else is written for it
 * (`storingFirst`), so no result, ledger entry or card is ever stored before
 * the answer whose call it belongs to, and a tool never runs for an answer
 * that is not stored.
 *
 * A tab that dies while it is held leaves the history as it was before the
 * model call: the recovering run asks the model again. That costs the call's
 * tokens (its usage, stored with the answer, is not counted then, as for a
 * tab that dies mid-stream) but acts on nothing: no card or call of the lost
 * answer was stored.
 */
export class HeldAnswer {
  /** The answer as the loop works with it; its `seq` is where it will be stored if nothing else is stored first. */
  readonly message: AssistantMessage;
  #stored: Promise<AssistantMessage> | undefined;

  constructor(
    private readonly storage: StoragePort,
    readonly draft: Extract<MessageDraft, { role: 'assistant' }>,
    /** What storing it does to its conversation (the turn counted, the call's usage added). */
    readonly update: (conversation: Conversation) => Conversation,
    seq: number,
  ) {
    this.message = { ...draft, seq };
  }

  get isStored(): boolean {
    return this.#stored !== undefined;
  }

  /** Stores it on its own, once; later calls get the same write. */
  store(): Promise<AssistantMessage> {
    this.#stored ??= this.storage
      .appendMessages(this.draft.conversationId, [this.draft], this.update)
      .then(([appended]) => appended as AssistantMessage);
    return this.#stored;
  }

  /** `storage`, with the answer stored before any write goes through. */
  storingFirst(storage: StoragePort): StoragePort {
    return new Proxy(storage, {
      get: (target, key, receiver) => {
        const value: unknown = Reflect.get(target, key, receiver);
        if (typeof value !== 'function') return value;
        const method = value as (...args: unknown[]) => Promise<unknown>;
        if (typeof key === 'string' && READS.has(key)) return method.bind(target);
        return async (...args: unknown[]) => {
          await this.store();
          return method.apply(target, args);
        };
      },
    });
  }
}
