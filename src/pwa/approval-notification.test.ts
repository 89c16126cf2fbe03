import { describe, expect, it } from 'vitest';
import { makePausePoint } from '../engine/testing/make-records.ts';
import { acceptsNotificationActions, alreadyDecidedNotification, approvalNotification, readNotificationData, shortDescription } from './approval-notification.ts';

describe('approval notifications', () => {
  it('a plain approval offers Approve and Decline, tagged with its card', () => {
    const { title, options } = approvalNotification(makePausePoint({ id: 'p1', conversationId: 'c1', title: 'Send the invoice?' }));
    expect(title).toBe('Approval needed: Send the invoice?');
    expect(options).toMatchObject({ body: 'Unknown effect: Sends 1 invoice of 120 EUR to ada@example.com.', tag: 'p1', data: { pausePointId: 'p1', conversationId: 'c1' } });
    expect(options.actions.map((a) => a.title)).toEqual(['Approve', 'Decline']);
  });

  it('a card that needs input has no actions: its tap opens the app', () => {
    for (const pause of [
      makePausePoint({ kind: 'choice', options: ['A', 'B'], origin: 'model' }),
      makePausePoint({ kind: 'data_entry', origin: 'model' }),
      makePausePoint({ origin: 'unknown_outcome' }),
      makePausePoint({ origin: 'elicitation', kind: 'data_entry' }),
    ]) {
      expect(acceptsNotificationActions(pause)).toBe(false);
      const { options } = approvalNotification(pause);
      expect(options.actions).toEqual([]);
      expect(options.body).toContain('Tap to answer in the app.');
    }
    expect(acceptsNotificationActions(makePausePoint({ status: 'resolved', resolution: 'approve' }))).toBe(false);
  });

  it('starts with the card\'s risk label, as a word', () => {
    expect(approvalNotification(makePausePoint({ risk: 'destructive', description: 'Deletes note n1.' })).options.body).toBe('Destructive: Deletes note n1.');
    expect(approvalNotification(makePausePoint({ risk: 'reads', description: 'GET /x' })).options.body).toBe('Reads: GET /x');
    expect(approvalNotification(makePausePoint({ risk: 'changes', kind: 'choice', options: ['a'], origin: 'model', description: 'Pick' })).options.body).toBe(
      'Changes: Pick Tap to answer in the app.',
    );
  });

  it('a reminder says it is one and alerts again under the same tag', () => {
    const { title, options } = approvalNotification(makePausePoint({ id: 'p1', title: 'Pay' }), { reminder: true });
    expect(title).toBe('Still waiting: Pay');
    expect(options).toMatchObject({ tag: 'p1', renotify: true });
  });

  it('the description becomes one short line of plain text', () => {
    expect(shortDescription('# Plan\n\nEmail **1,204** [subscribers](https://x.example).\n```\ncode\n```\nDone.')).toBe('Plan Email 1,204 subscribers. Done.');
    const long = shortDescription('word '.repeat(100));
    expect(long.length).toBeLessThanOrEqual(140);
    expect(long.endsWith('…')).toBe(true);
  });

  it('a late action is answered with a notification that says so and offers nothing', () => {
    const { title, options } = alreadyDecidedNotification('Pay', { pausePointId: 'p1', conversationId: 'c1' }, 'resolved');
    expect(title).toBe('Already decided: Pay');
    expect(options.actions).toEqual([]);
  });

  it('notification data read back is checked', () => {
    expect(readNotificationData({ pausePointId: 'p1', conversationId: 'c1' })).toEqual({ pausePointId: 'p1', conversationId: 'c1' });
    expect(readNotificationData({ pausePointId: 1 })).toBeNull();
    expect(readNotificationData(null)).toBeNull();
  });
});
