import type { PausePoint } from '../../engine/records/index.ts';
import type { ApprovalAlerts } from '../../pwa/approval-alerts.ts';
import type { ReminderSchedule, ReminderTimers } from '../../pwa/reminder-schedule.ts';
import type { AgentClient } from '../../worker/agent-client.ts';

export interface FollowApprovalsOptions {
  client: AgentClient;
  /** Every pending pause point, across conversations; undefined until first read. */
  pending: () => readonly PausePoint[] | undefined;
  /** Whether the badge is on in Settings (a switch off clears it at once). */
  badgeOn: () => boolean;
  /** Settings' reminder delay in minutes; undefined or null is off. */
  reminderMinutes?: () => number | null | undefined;
  /** Defaults to the browser's timers; tests pass fake ones. */
  reminderTimers?: ReminderTimers;
}

/**
 * Keeps the system's alerts in step with the approvals: a notification for each
 * approval the agent reports (`approvalRequested` decides whether one shows:
 * only while this page is hidden and Settings and the browser allow), closed
 * once its card is no longer pending (decided here, in another tab, or
 * expired), and the app badge showing the pending count. Call while a component
 * initialises: the subscriptions live in its effects.
 */
export function followApprovals(
  alerts: ApprovalAlerts,
  { client, pending, badgeOn, reminderMinutes = () => undefined, reminderTimers }: FollowApprovalsOptions,
): void {

  $effect(() =>
    client.onEvent?.((event) => {
      if (event.type !== 'approval_requested') return;
      alerts.approvalRequested({ pausePointId: event.pausePointId, conversationId: event.conversationId, title: event.title });
    }),
  );

  // A tapped notification, with this tab open: the service worker asks it to show the card.
  $effect(() => alerts.followServiceWorker());

  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- records what was pending last time; nothing renders from it
  let wasPending: ReadonlySet<string> = new Set<string>();
  $effect(() => {
    const list = pending();
    if (!list) return;
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never rendered
    const now = new Set(list.map((p) => p.id));
    for (const id of wasPending) if (!now.has(id)) alerts.dismiss(id);
    wasPending = now;
  });

  // A card still pending after Settings' delay notifies once more (while this tab is open).
  // The schedule is loaded once reminders are on: most start-ups never need it.
  let reminders: Promise<ReminderSchedule> | undefined;
  $effect(() => {
    const list = pending();
    const minutes = reminderMinutes();
    if (!list || (!minutes && !reminders)) return;
    reminders ??= import('../../pwa/reminder-schedule.ts').then(
      ({ ReminderSchedule }) =>
        new ReminderSchedule((id) => {
          const card = pending()?.find((p) => p.id === id);
          if (card) alerts.remind({ pausePointId: card.id, conversationId: card.conversationId, title: card.title });
        }, reminderTimers),
    );
    // Updates apply in order: each waits on the same promise.
    void reminders.then((schedule) => schedule.update(list, minutes));
  });
  $effect(() => () => void reminders?.then((schedule) => schedule.dispose()));

  const count = $derived(pending()?.length);
  $effect(() => {
    if (count === undefined) return;
    // Read here so that switching the badge off in Settings clears it at once.
    void alerts.setBadge(badgeOn() ? count : 0);
  });
}

/**
 * Tells this device's workers what this tab shows while it is visible, so
 * that no push goes out for a card someone is looking at: `viewing` is a
 * conversation's id, `*` for every pending card (Approvals), or null. The
 * channel and message are src/push/viewing-message.ts's, written out here so
 * that the page loads nothing of src/push. Call while a component initialises.
 */
export function announceViewing(tabId: string, viewing: () => string | null): void {
  $effect(() => {
    if (typeof BroadcastChannel === 'undefined') return;
    const shows = viewing();
    const channel = new BroadcastChannel('pausepoint:viewing');
    const say = () => channel.postMessage({ type: 'viewing', tabId, visible: document.visibilityState === 'visible', shows });
    say();
    document.addEventListener('visibilitychange', say);
    const refresh = setInterval(say, 10_000);
    return () => {
      clearInterval(refresh);
      document.removeEventListener('visibilitychange', say);
      channel.postMessage({ type: 'viewing', tabId, visible: false, shows: null });
      channel.close();
    };
  });
}
