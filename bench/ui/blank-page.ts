import { createServer } from 'node:http';
import type { Browser, BrowserContext } from '@playwright/test';
import { newProfile } from './browser.ts';
import type { SeededCard } from './seed-in-page.ts';

/** The control's card: what `timeToCard` waits for, and checks is a region named by its title with Approve in it. */
const CARD: SeededCard = { id: 'blank-page-card', title: 'A card and nothing else', conversationId: 'none' };

const PAGE = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>Control</title></head>
  <body>
    <section data-pause-point="${CARD.id}" aria-labelledby="title"><h2 id="title">${CARD.title}</h2><button>Approve</button></section>
  </body>
</html>`;

export interface BlankPage {
  context: BrowserContext;
  card: SeededCard;
  close(): Promise<void>;
}

/**
 * The control for the cold open (issue 35): a page that is only a card, with
 * no script, served from this machine on an origin of its own (so no service
 * worker answers it) and opened in a new tab, as the app's cases are. Its time
 * to the painted card is the browser's share of any page's: a new tab's
 * renderer, the request, parsing and the first frame.
 */
export async function startBlankPage(browser: Browser): Promise<BlankPage> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const context = await newProfile(browser, `http://127.0.0.1:${port}`);
  return {
    context,
    card: CARD,
    async close() {
      await context.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
