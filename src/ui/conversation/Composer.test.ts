// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { hasUnsentDraft } from '../state/draft.svelte.ts';
import { fakeContext } from '../testing/fake-app.svelte.ts';
import Composer from './Composer.svelte';

function renderComposer(props: Partial<{ conversationId: string | null; pendingApprovals: number; busy: boolean }> = {}) {
  const onSendGesture = vi.fn();
  const fake = fakeContext({ onSendGesture });
  const onSent = vi.fn();
  const view = render(Composer, {
    props: { conversationId: 'c1', pendingApprovals: 0, busy: false, onSent, ...props },
    context: fake.context,
  });
  return { ...fake, ...view, onSent, onSendGesture, box: screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement };
}

afterEach(() => localStorage.clear());

describe('Composer', () => {
  test('Enter sends the message and clears the box', async () => {
    const { client, box, onSent } = renderComposer();
    await fireEvent.input(box, { target: { value: 'Book the flights' } });
    await fireEvent.keyDown(box, { key: 'Enter' });
    expect(client.send).toHaveBeenCalledWith('c1', 'Book the flights');
    expect(box.value).toBe('');
    await vi.waitFor(() => expect(onSent).toHaveBeenCalledWith('c1'));
  });

  test('Shift+Enter does not send', async () => {
    const { client, box } = renderComposer();
    await fireEvent.input(box, { target: { value: 'line one' } });
    await fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(client.send).not.toHaveBeenCalled();
  });

  test('the Send button sends; an empty box cannot be sent', async () => {
    const { client, box } = renderComposer({ conversationId: null });
    const send = screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    await fireEvent.input(box, { target: { value: 'Hello' } });
    await fireEvent.click(send);
    expect(client.send).toHaveBeenCalledWith(null, 'Hello');
  });

  test('while the agent works, Send waits', async () => {
    const { client, box } = renderComposer({ busy: true });
    await fireEvent.input(box, { target: { value: 'More' } });
    await fireEvent.keyDown(box, { key: 'Enter' });
    expect(client.send).not.toHaveBeenCalled();
  });

  test('with pending approvals, sending asks first', async () => {
    const { client, box } = renderComposer({ pendingApprovals: 2 });
    await fireEvent.input(box, { target: { value: 'Never mind' } });
    await fireEvent.keyDown(box, { key: 'Enter' });
    expect(client.send).not.toHaveBeenCalled();
    const dialog = await screen.findByRole('dialog', { name: 'Abandon 2 pending approvals?' });
    expect(dialog).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Keep waiting' }));
    expect(client.send).not.toHaveBeenCalled();
    expect(box.value).toBe('Never mind');

    await fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await fireEvent.click(await screen.findByRole('button', { name: 'Send anyway' }));
    expect(client.send).toHaveBeenCalledWith('c1', 'Never mind');
  });

  test('keeps a half-typed message across a remount (a reload)', async () => {
    const first = renderComposer();
    await fireEvent.input(first.box, { target: { value: 'half a thought' } });
    first.unmount();
    const second = renderComposer();
    expect(second.box.value).toBe('half a thought');
  });

  test('a failed send puts the text back and says why', async () => {
    const { client, box } = renderComposer();
    client.send.mockRejectedValueOnce(new Error('The agent worker is not available'));
    await fireEvent.input(box, { target: { value: 'Try this' } });
    await fireEvent.keyDown(box, { key: 'Enter' });
    expect((await screen.findByRole('alert')).textContent).toMatch(/not available/);
    expect(box.value).toBe('Try this');
  });

  test('Send and Enter hand their user gesture to the app before sending; an empty box does not', async () => {
    const { client, box, onSendGesture } = renderComposer();
    await fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSendGesture).not.toHaveBeenCalled();
    await fireEvent.input(box, { target: { value: 'Go' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSendGesture).toHaveBeenCalledOnce();
    expect(client.send).toHaveBeenCalledOnce();
    expect(onSendGesture.mock.invocationCallOrder[0]).toBeLessThan(client.send.mock.invocationCallOrder[0]!);
  });

  test('says whether text on screen is unsent, for as long as the composer is shown', async () => {
    const { box, unmount } = renderComposer();
    expect(hasUnsentDraft()).toBe(false);
    await fireEvent.input(box, { target: { value: '   ' } });
    expect(hasUnsentDraft()).toBe(false);
    await fireEvent.input(box, { target: { value: 'half a thought' } });
    expect(hasUnsentDraft()).toBe(true);
    unmount();
    // The draft is kept for later, but no one is typing it now.
    expect(hasUnsentDraft()).toBe(false);
  });
});
