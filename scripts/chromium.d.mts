export interface FoundChromium {
  path: string;
  source: 'PAUSEPOINT_CHROMIUM' | 'playwright cache' | 'debian package' | 'debian headless shell';
}
export function findChromium(): FoundChromium | undefined;
export function findTestChromium(): FoundChromium | undefined;
export function ensureChromium(): FoundChromium;
