/**
 * The branch a message without `branch` belongs to: the conversation as it
 * was before any version. In a file of its own, without zod, for the page's
 * start path (versions/current-path.ts).
 */
export const ROOT_BRANCH = '';
