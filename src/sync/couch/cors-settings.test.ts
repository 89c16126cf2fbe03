import { describe, expect, it } from 'vitest';
import { corsSettingsFor } from './cors-settings.ts';

describe('corsSettingsFor', () => {
  it('gives CouchDB 3’s [chttpd] and [cors] sections for the app’s origin, as local.ini has them', () => {
    const { ini } = corsSettingsFor('https://pausepoint.example', 'https://couch.example.com');

    expect(ini).toBe(
      [
        '[chttpd]',
        'enable_cors = true',
        '',
        '[cors]',
        'origins = https://pausepoint.example',
        'credentials = true',
        'methods = GET, PUT, POST, HEAD, DELETE',
        'headers = accept, authorization, content-type, origin, referer',
      ].join('\n'),
    );
  });

  it('gives one curl line per setting against the node’s config API, with the admin’s credentials as placeholders', () => {
    const { curl } = corsSettingsFor('http://localhost:4173', 'https://me:secret@couch.example.com/db-proxy/?x=1');

    expect(curl.split('\n')).toEqual([
      `curl -X PUT -u 'ADMIN:PASSWORD' 'https://couch.example.com/db-proxy/_node/_local/_config/chttpd/enable_cors' -d '"true"'`,
      `curl -X PUT -u 'ADMIN:PASSWORD' 'https://couch.example.com/db-proxy/_node/_local/_config/cors/origins' -d '"http://localhost:4173"'`,
      `curl -X PUT -u 'ADMIN:PASSWORD' 'https://couch.example.com/db-proxy/_node/_local/_config/cors/credentials' -d '"true"'`,
      `curl -X PUT -u 'ADMIN:PASSWORD' 'https://couch.example.com/db-proxy/_node/_local/_config/cors/methods' -d '"GET, PUT, POST, HEAD, DELETE"'`,
      `curl -X PUT -u 'ADMIN:PASSWORD' 'https://couch.example.com/db-proxy/_node/_local/_config/cors/headers' -d '"accept, authorization, content-type, origin, referer"'`,
    ]);
    // The user's own credentials in the URL are never repeated in a command meant to be copied.
    expect(curl).not.toContain('secret');
  });

  it('quotes for the shell: nothing in the server’s address is expanded', () => {
    const { curl } = corsSettingsFor('https://app.example', "https://couch.example/it's$(x)");

    expect(curl.split('\n')[0]).toBe(`curl -X PUT -u 'ADMIN:PASSWORD' 'https://couch.example/it'\\''s$(x)/_node/_local/_config/chttpd/enable_cors' -d '"true"'`);
  });
});
