import { describe, expect, it } from 'vitest';
import { viewDocument, viewPolicy } from './view-document.ts';

describe('viewPolicy: the declared CSP and nothing wider', () => {
  it('declares nothing: no requests, frames or outside resources at all', () => {
    expect(viewPolicy({})).toBe(
      "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; font-src data:; media-src data: blob:; connect-src 'none'; frame-src 'none'; base-uri 'none'; object-src 'none'; form-action 'none'",
    );
  });

  it('grants the declared domains to their directives only', () => {
    const policy = viewPolicy({ connectDomains: ['https://api.example.com', 'wss://live.example.com'], resourceDomains: ['https://*.cdn.example'], frameDomains: ['https://player.example'] });
    expect(policy).toContain('connect-src https://api.example.com wss://live.example.com;');
    expect(policy).toContain("script-src 'unsafe-inline' https://*.cdn.example;");
    expect(policy).toContain('img-src data: blob: https://*.cdn.example;');
    expect(policy).toContain('frame-src https://player.example;');
  });

  it('drops a declared source that is a keyword, a wildcard, a path or carries another directive', () => {
    const policy = viewPolicy({ connectDomains: ['*', "'unsafe-eval'", 'https://a.example; script-src *', 'https://a.example/path', 'data:', 'https://ok.example:8443'] });
    expect(policy).toContain('connect-src https://ok.example:8443;');
    expect(policy).not.toContain('unsafe-eval');
    expect(policy.match(/script-src/g)).toHaveLength(1);
  });
});

describe('viewDocument', () => {
  it('puts the policy first, before anything of the view, keeping a doctype in front', () => {
    const doc = viewDocument('<!doctype html><html><head><script>alert(1)</script></head></html>', {});
    expect(doc.startsWith('<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;'.replaceAll('&#39;', "'"))).toBe(true);
    expect(doc.indexOf('Content-Security-Policy')).toBeLessThan(doc.indexOf('<script>'));
  });
});
