/**
 * The state kinds in which some tab's worker drives (or drove, before its tab
 * died) a conversation's loop. Apart from the records' zod schemas so that the
 * page, which reads states without zod, can share the one list.
 */
export const ACTIVE_STATES = ['running', 'retrying', 'waiting_for_network'] as const;
