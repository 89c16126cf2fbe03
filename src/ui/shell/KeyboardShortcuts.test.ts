// @vitest-environment jsdom
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, test } from 'vitest';
import KeyboardShortcuts from './KeyboardShortcuts.svelte';

afterEach(() => document.body.replaceChildren());

describe('Keyboard shortcuts', () => {
  test('? opens the dialog listing every shortcut; Close closes it', async () => {
    render(KeyboardShortcuts);
    expect(screen.queryByRole('dialog')).toBeNull();
    await fireEvent.keyDown(document.body, { key: '?' });
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    for (const what of ['Approve the focused card', 'Decline the focused card', 'Next / previous pending card (Approvals, or the conversation)']) {
      expect(within(dialog).getByText(what, { exact: false })).toBeTruthy();
    }
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  test('? typed into a text field is text', async () => {
    render(KeyboardShortcuts);
    const input = document.createElement('input');
    document.body.append(input);
    await fireEvent.keyDown(input, { key: '?' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
