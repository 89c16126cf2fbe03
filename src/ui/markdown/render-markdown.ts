import DOMPurify from 'dompurify';
import { Marked, type Token, type TokensList } from 'marked';

/**
 * Markdown from the model (and from card titles, descriptions and payloads it
 * wrote) is untrusted. It is parsed by marked and then sanitised by DOMPurify on
 * the main thread, against an allow-list rather than a deny-list:
 * - only the tags markdown produces for text survive: no script, style, iframe,
 *   object, embed, form or form controls (a fake "Approve" button in model text
 *   must not look like ours), no images;
 * - only `href`, `title`, `align` and `start` attributes survive: no `on*`
 *   handlers, no `style`, no `class`/`id` (our CSS and DOM ids stay ours);
 *   `start` only on `<ol>` as a number and `align` only on table cells as
 *   left/center/right, which is all marked ever writes there;
 * - URLs must be http(s) or mailto: no `javascript:`, no `data:`;
 * - every link opens in a new tab with `rel="noopener noreferrer"`.
 *
 * Images are rendered as links: loading one would send a request to a host the
 * user never configured, which this product promises not to do.
 */
const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'code', 'em', 'strong', 'del', 's',
  'a', 'ul', 'ol', 'li', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span', 'sup', 'sub', 'kbd',
];
const PURIFY_CONFIG = {
  ALLOWED_TAGS,
  ALLOWED_ATTR: ['href', 'title', 'align', 'start'],
  FORBID_TAGS: ['script', 'style', 'iframe', 'object', 'embed', 'form', 'img', 'svg', 'math'],
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
  // DOMPurify holds every attribute it does not know as URI-safe to ALLOWED_URI_REGEXP,
  // which "3" and "left" fail: these two are exempted here and checked by the hook below.
  ADD_URI_SAFE_ATTR: ['align', 'start'],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
};

/** The values marked writes, on the elements it writes them on; anything else is dropped. */
const SAFE_VALUES: Readonly<Record<string, { tags: ReadonlySet<string>; value: RegExp }>> = {
  start: { tags: new Set(['OL']), value: /^\d{1,9}$/ },
  align: { tags: new Set(['TH', 'TD']), value: /^(?:left|center|right)$/ },
};

let purifier: ReturnType<typeof DOMPurify> | undefined;

/** Our own DOMPurify instance, so the link hook never leaks into other users of the library. */
function purify(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier;
  const instance = DOMPurify(window);
  instance.addHook('uponSanitizeAttribute', (node, data) => {
    const rule = Object.hasOwn(SAFE_VALUES, data.attrName) ? SAFE_VALUES[data.attrName] : undefined;
    if (rule && !(rule.tags.has(node.nodeName) && rule.value.test(data.attrValue))) data.keepAttr = false;
  });
  instance.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A' && node.hasAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
  // Set once: a config handed to each `sanitize` is parsed again on each call (its allow-lists rebuilt), and a
  // conversation's first render sanitises every block of every message shown, a streamed answer its last block per chunk.
  instance.setConfig(PURIFY_CONFIG);
  purifier = instance;
  return instance;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const marked = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    // Markdown headings sit below the page's own (h1 app, h2 conversation, h3 card).
    heading({ tokens, depth }) {
      const level = Math.min(depth + 3, 6);
      return `<h${level}>${this.parser.parseInline(tokens)}</h${level}>\n`;
    },
    image({ href, text }) {
      return `<a href="${escapeHtml(href)}">${escapeHtml(text || 'image')}</a>`;
    },
  },
});

/**
 * Rendered blocks keyed by their markdown source. A message streaming in only
 * ever changes its last block, so each token costs one block's parse and
 * sanitise rather than the whole message's. Bounded; oldest entries go first.
 */
const blockCache = new Map<string, string>();
const CACHE_LIMIT = 2000;

function sanitisedBlock(token: Token, links: TokensList['links']): string {
  const tokens = Object.assign([token], { links }) as TokensList;
  return purify().sanitize(marked.parser(tokens));
}

function renderBlock(token: Token, links: TokensList['links']): string {
  const cacheable = Object.keys(links).length === 0;
  if (cacheable) {
    const hit = blockCache.get(token.raw);
    if (hit !== undefined) return hit;
  }
  const html = sanitisedBlock(token, links);
  if (cacheable) {
    if (blockCache.size >= CACHE_LIMIT) {
      const oldest = blockCache.keys().next().value;
      if (oldest !== undefined) blockCache.delete(oldest);
    }
    blockCache.set(token.raw, html);
  }
  return html;
}

/** Sanitised HTML for each top-level block of `source`, in order. */
export function renderMarkdownBlocks(source: string): string[] {
  const tokens = marked.lexer(source);
  const blocks: string[] = [];
  for (const token of tokens) {
    if (token.type === 'space') continue;
    blocks.push(renderBlock(token, tokens.links));
  }
  return blocks;
}

/**
 * How many of the last blocks are lexed again on each update. Appended text
 * changes the last block (a paragraph that turns into a heading or a table, an
 * open code fence), and while the last block's first line is still being written
 * it may turn out to belong to the block before it: after `1. a` and a blank line,
 * a block `1` is a paragraph until a `.` makes it the list's next item. A block
 * whose first line is complete, with another block after it, can no longer
 * change, so two open blocks are enough (a test shows one is not).
 */
const OPEN_BLOCKS = 2;

/**
 * Renders one text that grows at its end (a message as it streams) without
 * lexing all of it on every update: the blocks before the last `OPEN_BLOCKS`
 * are settled — their source and sanitised HTML kept — and each update lexes
 * only the text after them. The result always equals `renderMarkdownBlocks` of
 * the same text (a test streams tricky markdown through both). Two cases fall
 * back to lexing the whole text: a text that is not the previous one extended,
 * and link reference definitions (`[id]: url`), which reach back into earlier
 * blocks. Every block still goes through DOMPurify.
 */
export class MarkdownBlocks {
  /** The start of the text whose blocks are settled. */
  #settled = '';
  /** Their sanitised HTML, one entry per block. */
  #settledHtml: string[] = [];
  /**
   * The open blocks' HTML by source, from the last update: the block before the
   * last one is usually unchanged. Kept here rather than in the shared cache,
   * which each half-written last block would only fill with dead entries.
   */
  #openHtml = new Map<string, string>();

  render(text: string): string[] {
    const source = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
    if (!source.startsWith(this.#settled)) this.#forget();
    const rest = source.slice(this.#settled.length);
    const tokens = marked.lexer(rest);
    if (Object.keys(tokens.links).length > 0) {
      this.#forget();
      return renderMarkdownBlocks(source);
    }
    let open = tokens.length;
    for (let blocks = 0; open > 0 && blocks < OPEN_BLOCKS; ) {
      open--;
      if (tokens[open]!.type !== 'space') blocks++;
    }
    const settling = tokens.slice(0, open);
    const settlingSource = settling.map((token) => token.raw).join('');
    // Blocks settle only where their sources are known to tile the text exactly.
    if (rest.startsWith(settlingSource)) {
      for (const token of settling) {
        if (token.type !== 'space') this.#settledHtml.push(this.#openHtml.get(token.raw) ?? renderBlock(token, tokens.links));
      }
      this.#settled += settlingSource;
    } else {
      open = 0;
    }
    const html = [...this.#settledHtml];
    const openHtml = new Map<string, string>();
    for (const token of tokens.slice(open)) {
      if (token.type === 'space') continue;
      const block = this.#openHtml.get(token.raw) ?? sanitisedBlock(token, tokens.links);
      openHtml.set(token.raw, block);
      html.push(block);
    }
    this.#openHtml = openHtml;
    return html;
  }

  #forget(): void {
    this.#settled = '';
    this.#settledHtml = [];
    this.#openHtml = new Map();
  }
}

/** Sanitised HTML for the whole of `source`. */
export function renderMarkdown(source: string): string {
  return renderMarkdownBlocks(source).join('');
}
