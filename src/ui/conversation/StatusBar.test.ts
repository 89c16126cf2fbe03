// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, test, vi } from 'vitest';
import type { ConversationState } from '../../engine/records/index.ts';
import StatusBar from './StatusBar.svelte';

function renderBar(state: ConversationState | null) {
  const onStop = vi.fn();
  const onRetry = vi.fn();
  render(StatusBar, { props: { state, onStop, onRetry } });
  return { onStop, onRetry, status: screen.getByRole('status') };
}

describe('StatusBar', () => {
  test('idle says Ready, with no action', () => {
    const { status } = renderBar({ kind: 'idle' });
    expect(status.textContent).toBe('Ready');
    expect(screen.queryByRole('button')).toBeNull();
  });

  test('running offers Stop', async () => {
    const { status, onStop } = renderBar({ kind: 'running', owner: 't', since: 0 });
    expect(status.textContent).toBe('Running…');
    await fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(onStop).toHaveBeenCalled();
  });

  test('paused counts the approvals awaited', () => {
    expect(renderBar({ kind: 'paused', pending: 2 }).status.textContent).toBe('Paused — awaiting 2 approvals');
  });

  test('retrying shows the attempt and offers Stop', () => {
    const { status } = renderBar({ kind: 'retrying', owner: 't', attempt: 3, retryAt: Date.now() + 5000, reason: 'rate limited' });
    expect(status.textContent).toMatch(/Retrying — attempt 3 at .*rate limited/);
    expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy();
  });

  test('waiting for network', () => {
    expect(renderBar({ kind: 'waiting_for_network', owner: 't', since: 0 }).status.textContent).toBe('Waiting for network…');
  });

  test('an error shows its message and Retry; an auth error links to Settings', async () => {
    const { status, onRetry } = renderBar({ kind: 'error', code: 'auth', message: 'The API key was rejected.', retryable: false });
    expect(status.textContent).toBe('Error: The API key was rejected.');
    expect(screen.getByRole('link', { name: 'Open settings' })).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalled();
  });

  test('an interruption or the step limit offers Continue', () => {
    renderBar({ kind: 'error', code: 'step_limit', message: 'Stopped after 20 steps.', retryable: true });
    expect(screen.getByRole('button', { name: 'Continue' })).toBeTruthy();
  });
});
