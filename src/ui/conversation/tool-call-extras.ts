/**
 * What only some call rows show, loaded with the first such row (start-up
 * budget): a call's images, and Cancel for a call its server runs as a task.
 */
export { default as TaskCancel } from './TaskCancel.svelte';
export { default as ToolImages } from './ToolImages.svelte';

/** An MCP App's view (issue 36): its own chunk — the view, the bridge and ext-apps — loaded only for a call that has one. */
export const loadAppView = () => import('../mcp-apps/McpAppView.svelte');
