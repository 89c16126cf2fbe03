/**
 * What a CouchDB must be told to answer this page (CORS), as Settings ›
 * Devices shows it when the server refused the page's origin: the lines for
 * its `local.ini`, and one shell line that sets the same over its
 * `/_node/_local/_config` API (an admin's name and password needed).
 *
 * Same signature as `src/sync/couch/cors-settings.ts`, being written beside
 * the CouchDB client; until that lands, the page keeps its own copy here (the
 * page must not load src/sync's client for one message).
 */
export interface CorsSettings {
  ini: string;
  curl: string;
}

// Everything Pausepoint's client sends and needs (Basic auth, JSON bodies); no spaces, so that each fits one shell word.
const SETTINGS: readonly [section: string, key: string, value: (origin: string) => string][] = [
  ['chttpd', 'enable_cors', () => 'true'],
  ['cors', 'origins', (origin) => origin],
  ['cors', 'credentials', () => 'true'],
  ['cors', 'methods', () => 'GET,PUT,POST,HEAD,DELETE'],
  ['cors', 'headers', () => 'accept,authorization,content-type,origin,referer'],
];

export function corsSettingsFor(origin: string, serverUrl: string): CorsSettings {
  const ini = ['[chttpd]', 'enable_cors = true', '', '[cors]', ...SETTINGS.filter(([section]) => section === 'cors').map(([, key, value]) => `${key} = ${value(origin)}`)].join('\n');
  const base = serverRoot(serverUrl);
  const pairs = SETTINGS.map(([section, key, value]) => shellWord(`${section}/${key}=${value(origin)}`)).join(' ');
  const curl = `for kv in ${pairs}; do curl -u ADMIN:PASSWORD -X PUT "${shellQuoted(base)}/_node/_local/_config/\${kv%%=*}" -d "\\"\${kv#*=}\\""; done`;
  return { ini, curl };
}

/** The server's address without a trailing slash, query or fragment (a path is kept: CouchDB may sit behind a prefix). */
function serverRoot(serverUrl: string): string {
  const url = new URL(serverUrl);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** For inside double quotes: a URL may hold `$` or a backtick, which the shell would expand. */
function shellQuoted(text: string): string {
  return text.replace(/[\\"$`]/g, (c) => `\\${c}`);
}

/** An origin is scheme, host and port: nothing the shell reads specially, but quoted anyway should a port-less IPv6 bracket appear. */
function shellWord(text: string): string {
  return /^[\w./:=,[\]-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
