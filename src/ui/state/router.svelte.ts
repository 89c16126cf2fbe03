import { parseRoute, routeHref, type Route } from './route.ts';

/**
 * The current route as reactive state, following `location.hash`. Create it
 * while a component initialises: the hashchange listener lives in an effect.
 */
export class Router {
  #route: Route = $state.raw({ view: 'new' });

  readonly #win: Window;

  constructor(win: Window = window) {
    this.#win = win;
    this.#route = parseRoute(win.location.hash);
    $effect(() => {
      const sync = () => {
        this.#route = parseRoute(this.#win.location.hash);
      };
      this.#win.addEventListener('hashchange', sync);
      return () => this.#win.removeEventListener('hashchange', sync);
    });
  }

  get route(): Route {
    return this.#route;
  }

  navigate(route: Route, { replace = false } = {}): void {
    const href = routeHref(route);
    this.#route = route;
    if (this.#win.location.hash === href) return;
    if (replace) this.#win.history.replaceState(null, '', href);
    else this.#win.location.hash = href;
  }
}
