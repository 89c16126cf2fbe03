/**
 * Everything the page shows or does for attachments, in one chunk loaded on
 * demand: the composer's tray and chips with its first file, a message's
 * files with the first message that has some. One chunk, so the start-up
 * script names one file to preload, not one per module (start-up budget).
 */
export { AttachmentTray } from './attachment-tray.svelte.ts';
export { default as MessageAttachments } from './MessageAttachments.svelte';
