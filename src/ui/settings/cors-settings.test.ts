import { describe, expect, test } from 'vitest';
import { corsSettingsFor } from './cors-settings.ts';

describe('corsSettingsFor', () => {
  test('names the page’s origin in the [cors] section and enables CORS in [chttpd]', () => {
    const { ini } = corsSettingsFor('https://app.example', 'https://couch.example.com/');
    expect(ini).toBe(
      [
        '[chttpd]',
        'enable_cors = true',
        '',
        '[cors]',
        'origins = https://app.example',
        'credentials = true',
        'methods = GET,PUT,POST,HEAD,DELETE',
        'headers = accept,authorization,content-type,origin,referer',
      ].join('\n'),
    );
  });

  test('one shell line sets each of them through the server’s config API', () => {
    const { curl } = corsSettingsFor('http://localhost:4173', 'https://couch.example.com/db-proxy/');
    expect(curl).not.toContain('\n');
    expect(curl).toBe(
      'for kv in chttpd/enable_cors=true cors/origins=http://localhost:4173 cors/credentials=true cors/methods=GET,PUT,POST,HEAD,DELETE ' +
        'cors/headers=accept,authorization,content-type,origin,referer; ' +
        'do curl -u ADMIN:PASSWORD -X PUT "https://couch.example.com/db-proxy/_node/_local/_config/${kv%%=*}" -d "\\"${kv#*=}\\""; done',
    );
  });

  test('a server URL cannot break out of its quotes', () => {
    const { curl } = corsSettingsFor('https://app.example', 'https://couch.example.com/$(rm)`x`');
    expect(curl).toContain('"https://couch.example.com/\\$(rm)%60x%60/_node');
  });
});
