/**
 * What a CouchDB 3 server needs before this page may talk to it, for the
 * status line to show when the server refuses the page's origin: the
 * settings as they go into the server's local.ini, and the same as curl
 * commands against its configuration API, one per setting, for a server
 * already running. The admin's credentials are placeholders the person
 * replaces; they are never ours to know.
 *
 * `headers` lists what the client sends (accept, authorization,
 * content-type) and what browsers add (origin, referer). pouchdb-server
 * allows every origin out of the box and needs none of this.
 */
export const CORS_METHODS = 'GET, PUT, POST, HEAD, DELETE';
export const CORS_HEADERS = 'accept, authorization, content-type, origin, referer';

export function corsSettingsFor(origin: string, serverUrl: string): { ini: string; curl: string } {
  const settings: Array<[section: string, key: string, value: string]> = [
    ['chttpd', 'enable_cors', 'true'],
    ['cors', 'origins', origin],
    ['cors', 'credentials', 'true'],
    ['cors', 'methods', CORS_METHODS],
    ['cors', 'headers', CORS_HEADERS],
  ];
  const ini = ['[chttpd]', 'enable_cors = true', '', '[cors]', ...settings.filter(([section]) => section === 'cors').map(([, key, value]) => `${key} = ${value}`)].join('\n');
  const root = serverRoot(serverUrl);
  const curl = settings
    .map(([section, key, value]) => `curl -X PUT -u 'ADMIN:PASSWORD' ${shellQuote(`${root}/_node/_local/_config/${section}/${key}`)} -d ${shellQuote(JSON.stringify(value))}`)
    .join('\n');
  return { ini, curl };
}

/** The server's address without credentials, query or trailing slash: where `/_node/…` goes. */
function serverRoot(serverUrl: string): string {
  const url = new URL(serverUrl);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** Single quotes for a POSIX shell: nothing inside is expanded; a quote in the text is closed, escaped and reopened. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
