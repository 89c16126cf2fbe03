import { describe, expect, it } from 'vitest';
import { readPageMessage, readServiceWorkerMessage } from './sw-message.ts';

describe('readPageMessage', () => {
  it('reads each message a page sends, with only its own fields', () => {
    expect(readPageMessage({ type: 'pausepoint:keep-warm', extra: 1 })).toEqual({ type: 'pausepoint:keep-warm' });
    expect(readPageMessage({ type: 'SKIP_WAITING' })).toEqual({ type: 'SKIP_WAITING' });
    for (const type of ['pausepoint:approval-pending', 'pausepoint:approval-reminder', 'pausepoint:approval-settled'] as const) {
      expect(readPageMessage({ type, pausePointId: 'pp-1', title: 'not carried' })).toEqual({ type, pausePointId: 'pp-1' });
    }
  });

  it('refuses anything else: no object, an unknown type, a card message without its id or with one that is not a string', () => {
    for (const data of [null, undefined, 'SKIP_WAITING', 42, [], {}, { type: 'pausepoint:open-card' }, { type: '__proto__' }]) {
      expect(readPageMessage(data)).toBeNull();
    }
    expect(readPageMessage({ type: 'pausepoint:approval-pending' })).toBeNull();
    expect(readPageMessage({ type: 'pausepoint:approval-settled', pausePointId: 7 })).toBeNull();
  });
});

describe('readServiceWorkerMessage', () => {
  it('reads an open-card message and refuses one missing a field', () => {
    expect(readServiceWorkerMessage({ type: 'pausepoint:open-card', conversationId: 'c', pausePointId: 'p' })).toEqual({
      type: 'pausepoint:open-card',
      conversationId: 'c',
      pausePointId: 'p',
    });
    expect(readServiceWorkerMessage({ type: 'pausepoint:open-card', conversationId: 'c' })).toBeNull();
  });

  it('reads a decide-card message with Approve or Decline only, bound to the view the notification showed', () => {
    const message = { type: 'pausepoint:decide-card', conversationId: 'c', pausePointId: 'p', action: 'approve', viewHash: 'f'.repeat(64) };
    expect(readServiceWorkerMessage({ ...message, extra: 1 })).toEqual(message);
    expect(readServiceWorkerMessage({ ...message, action: 'choose' })).toBeNull();
    expect(readServiceWorkerMessage({ ...message, pausePointId: undefined })).toBeNull();
    expect(readServiceWorkerMessage({ ...message, viewHash: undefined })).toBeNull();
    expect(readServiceWorkerMessage({ ...message, viewHash: 'not a hash' })).toBeNull();
  });
});
