import type { Conversation, Message, PausePoint, Versions } from '../../engine/records/index.ts';
import { versionsAt, type VersionChoice } from '../../engine/versions/versions-at.ts';

export { currentPath } from '../../engine/versions/current-path.ts';

/** What every message's MessageActions reads of its conversation, one object for all of them (MessageList). */
export interface ActionsContext {
  conversation: Conversation;
  /** The device that runs the conversation, when it is another: only it may change its versions. */
  runsOn: string | undefined;
  /** The current version's messages as shown: the versions each begins are read from them. */
  path: readonly Message[];
  /** The conversation's cards: an edit sets the pending ones aside, as a Send does, asking first. */
  pauses: readonly PausePoint[];
  /** The last row shown: when it ends an answer, it offers Regenerate. */
  last: Message | undefined;
}

let last: { path: readonly Message[]; versions: Versions; choices: Map<string, VersionChoice> } | undefined;

/**
 * `versionsAt`, once per shown path: every row's MessageActions asks with the
 * same arrays, so one live-query emission computes it once, not once per row.
 * Loaded on demand with the first conversation that has versions (MessageList).
 */
export function choicesOf(path: readonly Message[], versions: Versions | undefined): ReadonlyMap<string, VersionChoice> {
  if (!versions) return NO_CHOICES;
  if (last?.path !== path || last.versions !== versions) last = { path, versions, choices: versionsAt(path, versions) };
  return last.choices;
}

const NO_CHOICES: ReadonlyMap<string, VersionChoice> = new Map();
