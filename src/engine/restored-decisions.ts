import { ASKED_AGAIN } from './card-warnings.ts';
export { ASKED_AGAIN };
import type { PausePoint } from './records/index.ts';

/** One call's pause points as this browser may act on them. */
export interface DecisionsMadeHere {
  /** The pause points whose decisions stand here: every one but those set aside. */
  pauses: PausePoint[];
  /**
   * A question the engine asks for this call, told why it is asked again when
   * an approval was set aside (unchanged otherwise).
   */
  explain(question: PausePoint): PausePoint;
}

/**
 * Sets aside the decisions a restored backup brought in that would run the
 * call: an approval of a gated call, or "Run again" after an unknown outcome.
 * They were made in another browser (or written by whoever made the file), and
 * nothing runs on a decision this browser did not see made. With them set
 * aside the call is where it was before anyone decided, so its gate asks again
 * with a fresh card. A restored refusal (decline, expiry, "Skip", "Treat as
 * done") stands: it only keeps a call from running.
 *
 * A call that finished (its ledger entry `succeeded` or `failed`) is settled
 * from the ledger before any decision is read, so this never makes a finished
 * call ask again.
 */
export function decisionsMadeHere(pauses: readonly PausePoint[]): DecisionsMadeHere {
  const setAside = pauses.filter(wouldRunOnRestoredDecision);
  if (setAside.length === 0) return { pauses: [...pauses], explain: (question) => question };
  return {
    pauses: pauses.filter((pause) => !setAside.includes(pause)),
    explain: (question) => ({ ...question, description: `${ASKED_AGAIN}\n\n${question.description}` }),
  };
}


/** The unknown-outcome card's option that runs the call again (UNKNOWN_OUTCOME_OPTIONS in settle-open-calls.ts; a test keeps them equal). */
export const RUN_AGAIN = 'Run again';

function wouldRunOnRestoredDecision(pause: PausePoint): boolean {
  if (pause.restored !== true || pause.status !== 'resolved') return false;
  if (pause.origin === 'gate') return pause.resolution === 'approve';
  if (pause.origin === 'unknown_outcome') return pause.resolution === RUN_AGAIN;
  // A rule's approval from another browser: the rules here decide the call afresh.
  if (pause.origin === 'rule') return pause.resolution === 'approve';
  return false;
}
