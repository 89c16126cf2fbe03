import type { ManifestOptions } from 'vite-plugin-pwa';

/** Colours shared with index.html's theme-color meta and public/icon.svg. */
export const THEME_COLOR = '#1f3a5f';
export const BACKGROUND_COLOR = '#ffffff';

/**
 * The web app manifest, passed to VitePWA's `manifest` option. Every icon file
 * lives in public/ (rendered from icon.svg by render-icons.mjs); the service
 * worker's glob patterns precache them with the build, so the installed app
 * shows its icons offline.
 *
 * `id` pins the app's identity to `/`: without it, the identity is derived from
 * `start_url`, and changing that later would make browsers see a different app.
 */
export const manifest = {
  id: '/',
  name: 'Pausepoint',
  short_name: 'Pausepoint',
  description: 'A private AI agent that runs in your browser and asks before it acts.',
  lang: 'en',
  dir: 'ltr',
  start_url: '/',
  scope: '/',
  display: 'standalone',
  theme_color: THEME_COLOR,
  background_color: BACKGROUND_COLOR,
  categories: ['productivity', 'utilities'],
  icons: [
    { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: '/icon-512-maskable.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
  ],
} satisfies Partial<ManifestOptions>;
