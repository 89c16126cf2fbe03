import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY_HEADER, DEV_CONTENT_SECURITY_POLICY, SECURITY_HEADERS, staticHostHeadersFile } from './content-security-policy.ts';

const indexHtml = readFileSync(join(import.meta.dirname, '../../index.html'), 'utf8');
const read = (path: string) => readFileSync(join(import.meta.dirname, '../..', path), 'utf8');

function directives(policy: string): Map<string, string[]> {
  return new Map(policy.split(';').map((part) => {
    const [name = '', ...values] = part.trim().split(/\s+/);
    return [name, values];
  }));
}

describe('the Content-Security-Policy', () => {
  it('is the one index.html carries in its meta tag (the dev server rewrites that exact text)', () => {
    const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(indexHtml);
    expect(meta?.[1]).toBe(CONTENT_SECURITY_POLICY);
  });

  it('runs only the app’s own scripts, with no inline code and no eval, and nothing framed, posted or based elsewhere', () => {
    const policy = directives(CONTENT_SECURITY_POLICY);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('form-action')).toEqual(["'none'"]);
    expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    expect(policy.get('worker-src')).toEqual(["'self'"]);
    expect(policy.get('manifest-src')).toEqual(["'self'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|frame-ancestors/);
  });

  it('the header adds frame-ancestors, which a meta tag cannot carry; the dev variant loosens styles and the dev socket only', () => {
    expect(directives(CONTENT_SECURITY_POLICY_HEADER).get('frame-ancestors')).toEqual(["'none'"]);
    const dev = directives(DEV_CONTENT_SECURITY_POLICY);
    expect(dev.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(dev.get('script-src')).toEqual(["'self'"]);
    expect(DEV_CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
  });

  it('point 15: public/_headers gives static hosts the header set for every path, workers included', () => {
    expect(read('public/_headers')).toBe(staticHostHeadersFile());
    expect(staticHostHeadersFile().split('\n')[0]).toBe('/*');
    expect(SECURITY_HEADERS).toEqual({
      'Content-Security-Policy': CONTENT_SECURITY_POLICY_HEADER,
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
    });
    // Requests to endpoints the user chooses (a model, an MCP or sync server) stay open: the cards and the key store guard them.
    expect(directives(CONTENT_SECURITY_POLICY_HEADER).get('connect-src')).toEqual(['*']);
  });

  it('point 15: the user guide gives the same headers, and a table of how to send them, for hosts that read no _headers file', () => {
    const readme = read('docs/user-guide.md');
    const section = readme.slice(readme.indexOf('**Content-Security-Policy.**'));
    const block = /```\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block).toBe(Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}\n`).join(''));
    expect(section.slice(0, section.indexOf('\n\n', section.indexOf('| Host |')))).toMatch(/\| nginx \|[\s\S]*\| Apache/);
  });
});
