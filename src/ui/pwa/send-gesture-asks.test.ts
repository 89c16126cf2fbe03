import { describe, expect, test, vi } from 'vitest';
import { createSendGestureAsks } from './send-gesture-asks.ts';

function setUp(notifications: { on: boolean }) {
  const ensurePermission = vi.fn(async () => 'granted' as const);
  const requestPersistence = vi.fn(async () => true);
  const onSend = createSendGestureAsks({ notificationsOn: () => notifications.on, ensurePermission, requestPersistence });
  return { onSend, ensurePermission, requestPersistence };
}

describe('createSendGestureAsks', () => {
  test('asks for permission and persistence on the first Send only', () => {
    const { onSend, ensurePermission, requestPersistence } = setUp({ on: true });
    expect(ensurePermission).not.toHaveBeenCalled();
    onSend();
    onSend();
    expect(ensurePermission).toHaveBeenCalledOnce();
    expect(requestPersistence).toHaveBeenCalledOnce();
  });

  test('with notifications off, does not ask for permission — until a Send made with them on', () => {
    const notifications = { on: false };
    const { onSend, ensurePermission, requestPersistence } = setUp(notifications);
    onSend();
    expect(ensurePermission).not.toHaveBeenCalled();
    expect(requestPersistence).toHaveBeenCalledOnce();
    notifications.on = true;
    onSend();
    onSend();
    expect(ensurePermission).toHaveBeenCalledOnce();
    expect(requestPersistence).toHaveBeenCalledOnce();
  });

  test('a failing request is reported, never thrown into the Send', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const onSend = createSendGestureAsks({
        notificationsOn: () => true,
        ensurePermission: () => Promise.reject(new Error('blocked')),
        requestPersistence: () => Promise.reject(new Error('no storage')),
      });
      expect(() => onSend()).not.toThrow();
      await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(2));
    } finally {
      warn.mockRestore();
    }
  });
});
