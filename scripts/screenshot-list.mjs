// The README's pictures: what scripts/screenshots.ts makes and
// scripts/check-screenshots.mjs checks. One list, so the two cannot drift.

/** @typedef {{ name: string, width: number, height: number, what: string }} Picture */
/** @typedef {'light' | 'dark'} Scheme */

/** @type {readonly Picture[]} */
export const PICTURES = [
  { name: 'card-desktop', width: 1280, height: 800, what: 'an approval card on a desktop' },
  { name: 'card-phone', width: 390, height: 844, what: 'the same card on a phone' },
  { name: 'audit-log', width: 1280, height: 800, what: 'the audit log after the decision' },
];

/** @type {readonly Scheme[]} */
export const SCHEMES = ['light', 'dark'];

/** A picture in the README must stay small enough to load at once on a code host. */
export const MAX_BYTES = 150 * 1024;
