import { describe, expect, it } from 'vitest';
import { findChromium, findTestChromium } from '../../scripts/chromium.mjs';

describe('findChromium', () => {
  it('honours an explicit PAUSEPOINT_CHROMIUM path', () => {
    process.env.PAUSEPOINT_CHROMIUM = process.execPath;
    try {
      expect(findChromium()).toEqual({ path: process.execPath, source: 'PAUSEPOINT_CHROMIUM' });
    } finally {
      delete process.env.PAUSEPOINT_CHROMIUM;
    }
  });

  it('refuses an explicit path that does not exist', () => {
    process.env.PAUSEPOINT_CHROMIUM = '/nonexistent/chromium';
    try {
      expect(() => findChromium()).toThrow(/does not exist/);
    } finally {
      delete process.env.PAUSEPOINT_CHROMIUM;
    }
  });
});

describe('findTestChromium', () => {
  it('takes an explicit PAUSEPOINT_CHROMIUM path over the headless shell', () => {
    process.env.PAUSEPOINT_CHROMIUM = process.execPath;
    try {
      expect(findTestChromium()).toEqual({ path: process.execPath, source: 'PAUSEPOINT_CHROMIUM' });
    } finally {
      delete process.env.PAUSEPOINT_CHROMIUM;
    }
  });
});
