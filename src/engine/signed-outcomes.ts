import type { EngineContext } from './engine-context.ts';
import { jsonEqual } from './json-equal.ts';
import type { DeviceSignature, PausePoint } from './records/index.ts';
import { cardViewHash, outcomeSigned, signDecision } from './signed-decision.ts';

/** The transactions one settlement may take: the second has every signature it needs unless a card changed in between. */
const ATTEMPTS = 3;

/**
 * Signatures for what this device settles without a person *inside* a
 * transaction that reads the cards it settles: the cards a Send sets aside
 * (`appendAndLoadStep`), a card a late press finds past its time
 * (`decisionSettlement`). Signing is WebCrypto, asynchronous, and an
 * IndexedDB transaction commits as soon as it waits on anything but its own
 * requests, so no signature can be made in there.
 *
 * Sign first, then write — never write, then sign. The transaction attaches
 * a signature only to the exact record it was made over (`attach`); a card it
 * has none for makes it write nothing (the caller aborts or refuses), the
 * card is signed as that transaction read it, and the same write is tried
 * again at the same time (`settle`). A tab that dies between the two leaves
 * what it left before the press: a Send not stored, a card still pending
 * past its time, which the next run's sweep expires, signed. Writing first
 * and signing in a follow-up would leave, in that window, an expiry stored
 * unsigned for good, and any later signer would be signing for a record it
 * may not have made (a restore, another device's copy).
 *
 * The common case costs nothing: no card, or none past its time, wants a
 * signature, and the first transaction is the only one. The last attempt
 * takes the record unsigned rather than refuse the person's Send or press
 * (only a card that changes between every attempt gets there; the caller
 * holds the conversation's lock, so none does).
 */
export class SignedOutcomes {
  /** By card id: prototype-free, and ids are untrusted input. */
  readonly #made = new Map<string, DeviceSignature>();
  #wanted: { card: PausePoint; settled: PausePoint; toolChanged: boolean | undefined }[] = [];
  #lastAttempt = false;

  constructor(private readonly ctx: Pick<EngineContext, 'tools' | 'signer'>) {}

  /**
   * Inside the transaction: `settled` (what `card`, as this transaction read
   * it, becomes) with this device's signature over exactly it; undefined when
   * none was made for it yet, and the caller must write nothing.
   * `toolChanged`: as the decision view reads it (see `cardViewHash`).
   */
  attach(card: PausePoint, settled: PausePoint, toolChanged?: boolean): PausePoint | undefined {
    if (!this.ctx.signer) return settled;
    const signature = this.#made.get(card.id);
    if (signature && jsonEqual(signature.signed, outcomeSigned(settled, cardViewHash(this.ctx, card, toolChanged)))) {
      return { ...settled, deviceSignature: signature };
    }
    if (this.#lastAttempt) return settled;
    this.#wanted.push({ card, settled, toolChanged });
    return undefined;
  }

  /** Signs, before the transaction, what `card` will become (`settled`), unless that is signed already. */
  async sign(card: PausePoint, settled: PausePoint, toolChanged?: boolean): Promise<void> {
    const signed = outcomeSigned(settled, cardViewHash(this.ctx, card, toolChanged));
    if (jsonEqual(this.#made.get(card.id)?.signed, signed)) return;
    const signature = await signDecision(this.ctx, signed);
    if (signature) this.#made.set(card.id, signature);
  }

  /**
   * Runs `attempt` (one transaction that settles through `attach`), and again
   * after signing whatever it wanted, until it wants nothing. `prepare`, when
   * given, signs more before the next attempt (`sign`): the cards the first
   * transaction did not get to once one was missing. Whatever an attempt
   * resolved or threw is the caller's when it wanted no signature.
   */
  async settle<T>(attempt: () => Promise<T>, prepare?: () => Promise<void>): Promise<T> {
    for (let tries = 1; ; tries++) {
      this.#wanted = [];
      this.#lastAttempt = tries === ATTEMPTS;
      const done = await attempt().then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
      if (this.#wanted.length === 0) {
        if ('error' in done) throw done.error;
        return done.value;
      }
      await Promise.all(this.#wanted.map(({ card, settled, toolChanged }) => this.sign(card, settled, toolChanged)));
      await prepare?.();
    }
  }
}

/** Thrown inside a transaction that may not commit yet (see `SignedOutcomes`): it aborts it, and nothing is written. */
export class OutcomeNotSignedYet extends Error {
  constructor(cardId: string) {
    super(`Card ${cardId} is signed before it is set aside.`);
    this.name = 'OutcomeNotSignedYet';
  }
}
