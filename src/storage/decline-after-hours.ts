/**
 * What Settings' `If nobody decides` offers besides keep waiting: decline after
 * this many hours. A file of its own, not in settings-constants.ts: that one is
 * part of the page's start-up chunk, and whatever it exports goes there.
 */
export const DECLINE_AFTER_HOURS = [1, 8, 24] as const;
