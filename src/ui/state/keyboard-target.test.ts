// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { dialogOpen, shortcutKey } from './keyboard-target.ts';

function press(target: Element, key: string, init: KeyboardEventInit = {}): string | null {
  let seen: string | null | undefined;
  target.addEventListener('keydown', (event) => (seen = shortcutKey(event as KeyboardEvent)), { once: true });
  target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, ...init }));
  return seen ?? null;
}

afterEach(() => document.body.replaceChildren());

describe('shortcut keys', () => {
  it('are read on a card, a button or a checkbox, lower-cased', () => {
    document.body.innerHTML = '<section tabindex="-1"></section><button>Go</button><input type="checkbox">';
    const [section, button, checkbox] = [...document.body.children];
    expect(press(section!, 'A')).toBe('a');
    expect(press(button!, 'd')).toBe('d');
    expect(press(checkbox!, '?')).toBe('?');
  });

  it('never fire inside text fields, editable text or a dialog', () => {
    document.body.innerHTML = '<textarea></textarea><input type="text"><input type="search"><select></select><div contenteditable="true"></div><dialog open><button>x</button></dialog>';
    const [textarea, text, search, select, editable, dialog] = [...document.body.children];
    // jsdom does not compute isContentEditable; the attribute is what a browser reads it from.
    Object.defineProperty(editable, 'isContentEditable', { value: true });
    for (const target of [textarea, text, search, select, editable, dialog!.firstElementChild]) expect(press(target!, 'a')).toBeNull();
  });

  it('leave Ctrl, Alt and Meta combinations and named keys alone', () => {
    document.body.innerHTML = '<button>Go</button>';
    const button = document.body.firstElementChild!;
    expect(press(button, 'a', { ctrlKey: true })).toBeNull();
    expect(press(button, 'a', { metaKey: true })).toBeNull();
    expect(press(button, 'a', { altKey: true })).toBeNull();
    expect(press(button, 'Enter')).toBeNull();
  });

  it('knows when a dialog is open', () => {
    document.body.innerHTML = '<dialog></dialog>';
    expect(dialogOpen()).toBe(false);
    document.querySelector('dialog')!.setAttribute('open', '');
    expect(dialogOpen()).toBe(true);
  });
});
