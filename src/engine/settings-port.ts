import type { SpendingSettings } from './spending.ts';

/**
 * The user's settings the engine needs, read each time they are needed (not
 * cached), so a run started by any tab — a recovered one included — and a
 * setting changed in another tab apply at once.
 */
export interface SettingsPort {
  /** How long a new pause point stays answerable, in ms; null for no expiry. */
  expiryMs(): Promise<number | null>;
  /**
   * Settings' `If nobody decides`: after how many ms a new card is declined
   * automatically; null (or absent) keeps waiting. See `cardDeadline`.
   */
  declineAfterMs?(): Promise<number | null>;
  /**
   * The limits, prices and today's spending the check before each model call
   * reads (spending.ts). None: no limits. `alongside` is what the storage read
   * with the step (StepRecords.alongside), handed on as the model factory gets
   * it: a host that reads its settings there needs no read of its own.
   */
  spending?(alongside?: unknown): Promise<SpendingSettings>;
  /**
   * Settings' custom instructions, sent with every model call after the app's
   * system prompt (build-request.ts); undefined or empty for none. `alongside`
   * as for `spending`.
   */
  instructions?(alongside?: unknown): Promise<string | undefined>;
}
