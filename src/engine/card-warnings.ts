/**
 * What a gate card's description says first when there is something to warn
 * about (the engine writes these when it makes the card). Zod-free and
 * dependency-free: the decision view (decision-view.ts) lifts them out of the
 * description into warnings, on the page too.
 */

/** Said first on the card of a call that a rule would have decided, could it read the call's URL or path as the server will. */
export const UNCLEAR =
  '**Your rule cannot tell whether it applies.** A URL or path in this call is not written the plain way (a `..` or `.` segment, a doubled, encoded or back slash, a user name, or a URL the browser would rewrite), so the server may read it as another place than your rule does: decide this call yourself.';

/** Said first on the card of a call that a rule would have allowed had the tool not changed. */
export const TOOL_CHANGED =
  '**This tool changed since you allowed it.** Its definition (name, description, schemas or annotations) is not what it was when your rule was made or you last approved it, so the rule does not apply: decide this call yourself.';

/** Said first on the card of a call whose tool changed after its card was approved. */
export const CHANGED_SINCE_APPROVED =
  '**This tool changed after you approved this call**, so it was not run: its definition is no longer the one your approval was for. Decide again, on the tool as it is now.';

/** Said first on the card that asks about a call a restored backup says was running. */
export const STARTED_ELSEWHERE =
  '**Asked again:** a restored backup says this call was running in another browser when the backup was made. Nothing has run here. Approve here to run it with the arguments below.';

export const ASKED_AGAIN =
  '**Asked again:** this call was approved earlier, but that approval came from a restored backup, not from this browser. Nothing has run. Approve here to run it.';
