import { describe, expect, it } from 'vitest';
import { CouchError } from './couch-error.ts';
import { basicAuthorization } from './couch-request.ts';

describe('CouchError', () => {
  it('carries its kind and status, with a message for a person', () => {
    const error = new CouchError('unauthorized', { status: 401, detail: 'unauthorized: Name or password is incorrect.' });

    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'CouchError', kind: 'unauthorized', status: 401, message: 'The sync server refused the user name or password.' });
    expect(new CouchError('no_database').message).toBe('The database does not exist on the sync server.');
    expect(new CouchError('timeout').status).toBeUndefined();
  });
});

describe('basicAuthorization', () => {
  it('encodes the name and password as UTF-8 (RFC 7617), which btoa alone cannot', () => {
    expect(basicAuthorization('alice', 'correct horse')).toBe('Basic YWxpY2U6Y29ycmVjdCBob3JzZQ==');
    expect(basicAuthorization('jörg', 'пароль')).toBe(`Basic ${Buffer.from('jörg:пароль', 'utf8').toString('base64')}`);
  });
});
