// @vitest-environment jsdom
import { render } from '@testing-library/svelte';
import { describe, expect, test, vi } from 'vitest';
import Markdown from './Markdown.svelte';
import { renderMarkdown, renderMarkdownBlocks } from './render-markdown.ts';

function dom(html: string): HTMLElement {
  const div = document.createElement('div');
  div.innerHTML = html;
  return div;
}

describe('renderMarkdown', () => {
  test('renders ordinary markdown', () => {
    const out = dom(renderMarkdown('**bold** and `code`\n\n- one\n- two'));
    expect(out.querySelector('strong')?.textContent).toBe('bold');
    expect(out.querySelector('code')?.textContent).toBe('code');
    expect(out.querySelectorAll('li')).toHaveLength(2);
  });

  test('removes script tags and their content', () => {
    const html = renderMarkdown('hi <script>window.pwned = 1</script> there');
    expect(html).not.toMatch(/script/i);
    expect(html).not.toContain('pwned');
  });

  test('removes images and their event handlers', () => {
    const html = renderMarkdown('<img src="x" onerror="alert(1)"> and ![alt](https://tracker.example/p.png)');
    const out = dom(html);
    expect(out.querySelector('img')).toBeNull();
    expect(html).not.toMatch(/onerror|alert/);
    // A markdown image becomes a link the user may choose to open.
    expect(out.querySelector('a')?.getAttribute('href')).toBe('https://tracker.example/p.png');
  });

  test('drops javascript: and data: URLs', () => {
    const out = dom(renderMarkdown('[click](javascript:alert(1)) [d](data:text/html;base64,PHNjcmlwdD4=) <a href="JaVaScRiPt:alert(2)">x</a>'));
    for (const a of out.querySelectorAll('a')) {
      expect(a.getAttribute('href') ?? '').not.toMatch(/javascript|data:/i);
    }
  });

  test('removes iframes, objects, embeds, forms, styles and buttons', () => {
    const html = renderMarkdown(
      '<iframe src="https://evil.example"></iframe><object data="x"></object><embed src="y"><form action="z"><input name="q"><button>Approve</button></form><style>body{display:none}</style>',
    );
    expect(html).not.toMatch(/<(iframe|object|embed|form|input|button|style)/i);
  });

  test('removes on* attributes, style, class and id from allowed tags', () => {
    const out = dom(renderMarkdown('<p onclick="alert(1)" style="color:red" class="card" id="app">text</p>'));
    const p = out.querySelector('p');
    expect(p?.attributes).toHaveLength(0);
    expect(p?.textContent).toBe('text');
  });

  test('links open in a new tab without an opener or referrer', () => {
    const a = dom(renderMarkdown('[docs](https://example.com/docs)')).querySelector('a');
    expect(a?.getAttribute('href')).toBe('https://example.com/docs');
    expect(a?.getAttribute('target')).toBe('_blank');
    expect(a?.getAttribute('rel')).toBe('noopener noreferrer');
  });

  test('headings sit below the page headings', () => {
    expect(renderMarkdown('# Title')).toContain('<h4>');
  });

  test('splits into blocks, so a growing message re-renders only its last block', () => {
    const first = renderMarkdownBlocks('Para one.\n\nPara tw');
    const second = renderMarkdownBlocks('Para one.\n\nPara two.');
    expect(first).toHaveLength(2);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]);
  });
});

describe('Markdown component', () => {
  test('shows the source as plain text until the renderer has loaded, then sanitised HTML', async () => {
    // The first Markdown in this file: the renderer is not loaded yet.
    const source = 'Hello <img src=x onerror="alert(1)"> **world**';
    const { container } = render(Markdown, { source });
    expect(container.textContent).toBe(source);
    expect(container.querySelector('img')).toBeNull();
    await vi.waitFor(() => expect(container.querySelector('strong')?.textContent).toBe('world'));
    expect(container.querySelector('img')).toBeNull();
  });

  test('once loaded, renders at once', () => {
    const { container } = render(Markdown, { source: '*now*' });
    expect(container.querySelector('em')?.textContent).toBe('now');
  });
});
