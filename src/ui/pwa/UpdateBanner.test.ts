// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serviceWorker as sw } from '../testing/pwa-register-double.ts';
import UpdateBanner from './UpdateBanner.svelte';

function fire(event: 'onNeedRefresh' | 'onOfflineReady' | 'onNeedReload') {
  flushSync(() => sw.options?.[event]?.());
}

beforeEach(() => {
  sw.reset();
});
afterEach(() => {
  vi.useRealTimers();
});

function renderBanner(canReload = () => true) {
  const reload = vi.fn();
  render(UpdateBanner, { props: { canReload, reload } });
  return { reload };
}

describe('UpdateBanner', () => {
  it('registers the service worker and shows nothing until there is news', () => {
    renderBanner();
    expect(sw.options).toBeDefined();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('shows Reload when a new version is waiting, and never reloads by itself', () => {
    const { reload } = renderBanner();
    fire('onNeedRefresh');
    expect(screen.getByText('A new version is ready —')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    expect(reload).not.toHaveBeenCalled();
    expect(sw.update).not.toHaveBeenCalled();
  });

  it('Reload activates the new version, then reloads once it has taken over', async () => {
    const { reload } = renderBanner();
    fire('onNeedRefresh');
    await fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(sw.update).toHaveBeenCalledOnce();
    expect(reload).not.toHaveBeenCalled();
    fire('onNeedReload');
    expect(reload).toHaveBeenCalledOnce();
  });

  it('when another tab switched versions, keeps this tab as it is until the user reloads', async () => {
    const { reload } = renderBanner();
    fire('onNeedRefresh');
    fire('onNeedReload');
    expect(reload).not.toHaveBeenCalled();
    await fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(sw.update).not.toHaveBeenCalled();
    expect(reload).toHaveBeenCalledOnce();
  });

  it('asks first while this tab is busy', async () => {
    const { reload } = renderBanner(() => false);
    fire('onNeedRefresh');
    await fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(sw.update).not.toHaveBeenCalled();
    // The question loads when asked (ConfirmDialog on demand).
    expect(await screen.findByRole('heading', { name: 'Reload now?' })).toBeTruthy();

    await fireEvent.click(screen.getByRole('button', { name: 'Not now' }));
    expect(sw.update).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();

    await fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    await fireEvent.click(await screen.findByRole('button', { name: 'Reload anyway' }));
    expect(sw.update).toHaveBeenCalledOnce();
    fire('onNeedReload');
    expect(reload).toHaveBeenCalledOnce();
  });

  it('reloads anyway if the switch-over never comes', async () => {
    vi.useFakeTimers();
    const { reload } = renderBanner();
    fire('onNeedRefresh');
    await fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(4000);
    expect(reload).toHaveBeenCalledOnce();
  });

  it('says when the app is ready offline, and can be dismissed', async () => {
    renderBanner();
    fire('onOfflineReady');
    expect(screen.getByText('Pausepoint is ready to work offline.')).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('Pausepoint is ready to work offline.')).toBeNull();
  });

  it('checks for a new version periodically while online', async () => {
    vi.useFakeTimers();
    const registration = { update: vi.fn(async () => {}) } as unknown as ServiceWorkerRegistration;
    render(UpdateBanner, { props: { canReload: () => true, reload: vi.fn(), updateCheckMinutes: 1 } });
    sw.options?.onRegisteredSW?.('/sw.js', registration);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(registration.update).toHaveBeenCalledOnce();
  });
});
