// @vitest-environment jsdom
import { render } from '@testing-library/svelte';
import { describe, expect, test, vi } from 'vitest';
import Markdown from './Markdown.svelte';
import { MarkdownBlocks, renderMarkdown, renderMarkdownBlocks } from './render-markdown.ts';

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

  test('a numbered list keeps its start, and table cells their alignment', () => {
    const out = dom(renderMarkdown('3. third step\n4. fourth step\n\n| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |'));
    expect(out.querySelector('ol')?.getAttribute('start')).toBe('3');
    const aligns = (selector: string) => [...out.querySelectorAll(selector)].map((cell) => cell.getAttribute('align'));
    expect(aligns('th')).toEqual(['left', 'center', 'right']);
    expect(aligns('td')).toEqual(['left', 'center', 'right']);
  });

  test('a link keeps its title', () => {
    expect(dom(renderMarkdown('[docs](https://example.com/docs "The docs")')).querySelector('a')?.getAttribute('title')).toBe('The docs');
  });

  test('start and align survive only with the values and on the elements markdown gives them', () => {
    const out = dom(
      renderMarkdown(
        '<ol start="javascript:alert(1)"><li>a</li></ol><ol start="-2"><li>b</li></ol><ul start="4"><li>c</li></ul>' +
          '<table><tr><td align="justify">d</td><td align="expression(alert(1))">e</td></tr></table><p align="center">f</p>',
      ),
    );
    expect(out.querySelectorAll('[start]')).toHaveLength(0);
    expect(out.querySelectorAll('[align]')).toHaveLength(0);
    expect(out.textContent).toBe('abcdef');
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

describe('MarkdownBlocks (a text that grows at its end)', () => {
  // Markdown whose blocks change shape as text arrives: fences and an html comment
  // open across blank lines, a paragraph that becomes a setext heading or a table,
  // a tight list that turns loose, indented code after a paragraph (a continuation,
  // not code), lazy blockquote lines, nested lists, raw html blocks and injections.
  const TRICKY = [
    'Intro with **bold\nacross lines** and `code`.',
    'Title\n=====',
    '```js\nconst a = 1;\n\n\nconsole.log(a);\n```',
    '~~~\nunclosed tilde fence\n\n# not a heading',
    '~~~',
    '- one\n- two\n\n- three (now loose)\n  continued\n\n      indented code in the item\n- four\n  1. nested\n  2. list',
    'para\n    not code: a lazy continuation\n\n    but this is code\n\n    and still code',
    '| a | b |\n| --- | :-: |\n| 1 | 2 |\n| 3 | <img src=x onerror=alert(1)> |\nafter the table',
    'header line\n| x | y |\n| - | - |\n| 5 | 6 |',
    '> quote\nlazy line\n> - list in quote\n\n> another quote',
    '<div onclick="alert(1)">\n*html block*\n</div>',
    '<!-- a comment\n\nthat spans blank lines -->',
    '<script>window.pwned = 1</script>',
    '1. first\n2. second\n\n10. ten',
    '***\n\n[a link](javascript:alert(1)) and [ok](https://example.com) and https://auto.example',
    'Trailing paragraph without a newline',
  ].join('\n\n');

  function streamThrough(text: string, chunk: (i: number) => number): void {
    const blocks = new MarkdownBlocks();
    for (let end = 0; end < text.length; ) {
      end = Math.min(text.length, end + chunk(end));
      const prefix = text.slice(0, end);
      expect(blocks.render(prefix), `after ${end} characters`).toEqual(renderMarkdownBlocks(prefix));
    }
  }

  test('equals a whole render after every character of tricky markdown', () => {
    streamThrough(TRICKY, () => 1);
  });

  test('equals a whole render when the text arrives in uneven chunks', () => {
    let seed = 7;
    streamThrough(TRICKY.repeat(3), () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return 1 + (seed % 40);
    });
  });

  test('link reference definitions reach back into earlier blocks, and still render the same', () => {
    streamThrough('See [the docs][d] first.\n\nMore text.\n\n[d]: https://example.com/docs "Docs"\n\nEnd.', () => 3);
  });

  test('windows line endings, and a text that is replaced rather than extended', () => {
    const blocks = new MarkdownBlocks();
    expect(blocks.render('a\r\n\r\n- b\r\n- c')).toEqual(renderMarkdownBlocks('a\n\n- b\n- c'));
    expect(blocks.render('A new text.\n\nIts second block.')).toEqual(renderMarkdownBlocks('A new text.\n\nIts second block.'));
    expect(blocks.render('')).toEqual([]);
  });

  test('settled blocks keep their html strings, so the page does not touch them', () => {
    const blocks = new MarkdownBlocks();
    const first = blocks.render('One.\n\nTwo.\n\nThree.\n\nFour is growi');
    const second = blocks.render('One.\n\nTwo.\n\nThree.\n\nFour is growing');
    expect(second.slice(0, 3)).toEqual(first.slice(0, 3));
    expect(second[0]).toBe(first[0]);
    expect(second[3]).toBe('<p>Four is growing</p>\n');
  });

  test('sanitises every block it renders', () => {
    const html = new MarkdownBlocks().render(TRICKY).join('');
    expect(html).not.toMatch(/<(script|img|div|iframe)|onclick|onerror|javascript:/i);
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
