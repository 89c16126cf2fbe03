/**
 * What only some call rows show, loaded with the first such row (start-up
 * budget): a call's images, and Cancel for a call its server runs as a task.
 */
export { default as TaskCancel } from './TaskCancel.svelte';
export { default as ToolImages } from './ToolImages.svelte';
