import type { HeldAnswer } from './held-answer.ts';
import type { LoadedStep } from './history-cache.ts';
import { lastAssistant, openCalls } from './read-history.ts';
import { callsToRead } from './settle-open-calls.ts';
import type { CallRecords } from './storage-port.ts';
import type { CallUsage, Conversation, ConversationState, Message, OwnerDevice, PausePoint } from './records/index.ts';
import { currentPath } from './versions/current-path.ts';

/** What one step of the loop decides from. */
export interface Step {
  state: ConversationState;
  /** How many model calls the conversation has had: the next answer's `turnIndex`. */
  turns: number;
  /** Pending pause points, oldest first. */
  pending: PausePoint[];
  /**
   * The current version's history (versions/current-path.ts), ordered by
   * `seq`: all the loop and the model see. Without versions, the whole stored
   * history, shared with the history cache; never mutated.
   */
  history: readonly Message[];
  /**
   * Every stored message, of every version, when that is more than `history`:
   * a new call's id may not be one any version used (its ledger entry and
   * cards are another call's), and a new message's `seq` comes after all.
   */
  stored?: readonly Message[];
  /**
   * What the conversation's MCP sampling calls used (`Conversation.sampled`),
   * for the spending check. Carried as read: a sampling call happens inside a
   * tool call that asked the user, after which the step is read again.
   */
  sampled: readonly CallUsage[];
  /** The stored records of the last answer's open calls, when known without reading them. */
  calls?: CallRecords;
  /** What storage read with this step for its model call; absent on a carried step, which read nothing. */
  alongside?: unknown;
  /** The conversation's own instructions (`Conversation.instructions`), sent with its model calls. */
  instructions?: string;
  /** The device the conversation runs on, when it records one (see `DevicesPort`). */
  ownerDevice?: OwnerDevice;
  /** The last answer when it is not stored yet (the step carried on from the model call): the last message of `history`. */
  held?: HeldAnswer;
}

export const NO_RECORDS: CallRecords = { pausePoints: [], ledger: [] };
const NO_USAGE: readonly CallUsage[] = Object.freeze([]);

/** The step a read describes; undefined when the conversation is gone. */
export function stepOf({ conversation, pending, history: stored, alongside, calls }: LoadedStep): Step | undefined {
  // Filtered per step: the history cache keeps the whole append-only history, whatever version is current.
  const history = conversation ? currentPath(stored, conversation.versions) : stored;
  return (
    conversation && {
      state: conversation.state,
      turns: conversation.turns,
      pending,
      history,
      ...(history === stored ? {} : { stored }),
      sampled: conversation.sampled?.map((s) => s.usage) ?? NO_USAGE,
      ...(alongside === undefined ? {} : { alongside }),
      ...(calls ? { calls } : {}),
      ...(conversation.ownerDevice ? { ownerDevice: conversation.ownerDevice } : {}),
      // Instructions a file brought are shown, not sent, until the person turns them on (src/inert/).
      ...(conversation.instructions && conversation.instructionsOff !== true ? { instructions: conversation.instructions } : {}),
    }
  );
}

/** The calls a step's read reads the records of: what settling the current version's last answer's open calls would read. */
export function openCallsToRead(stored: readonly Message[], conversation: Conversation | undefined): string[] {
  const history = currentPath(stored, conversation?.versions);
  const last = lastAssistant(history);
  const open = last ? openCalls(last, history) : [];
  return last && open.length > 0 ? callsToRead(last, open) : [];
}
