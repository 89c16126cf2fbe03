import { mount } from 'svelte';
import type { PausepointDb } from '../../storage/db.ts';
import type { FirstScreen } from '../state/first-screen.ts';
import type { Router } from '../state/router.svelte.ts';
import CardLink from './CardLink.svelte';

/**
 * Puts CardLink over the app, once per page: it shows itself for each push
 * link the address takes and hides when closed. Mounted by hand from
 * FollowApprovals rather than through a block in App's markup, which would
 * add to the page's start-up JavaScript (npm run size).
 */
export function mountCardLink(db: PausepointDb, router: Router, first: FirstScreen | undefined): void {
  mount(CardLink, { target: document.body.appendChild(document.createElement('div')), props: { db, router, first } });
}
