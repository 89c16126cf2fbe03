import { mount } from 'svelte';
import type { PausepointDb } from '../../storage/db.ts';
import PushFailedNote from './PushFailedNote.svelte';

/** Puts PushFailedNote over the app, once per page, as mount-card-link.ts does CardLink (and for the same reason). */
export function mountPushFailedNote(db: PausepointDb): void {
  mount(PushFailedNote, { target: document.body.appendChild(document.createElement('div')), props: { db } });
}
