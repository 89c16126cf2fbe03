// Types for `virtual:pwa-register`, the module vite-plugin-pwa generates to register the service worker.
/// <reference types="vite-plugin-pwa/vanillajs" />
