export interface FoundChromium {
  path: string;
  source: 'PAUSEPOINT_CHROMIUM' | 'playwright cache' | 'debian package';
}
export function findChromium(): FoundChromium | undefined;
export function ensureChromium(): FoundChromium;
