/// <reference types="svelte" />
/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** True in the end-to-end tests' build only (PAUSEPOINT_PROBES=1, vite.config.ts). */
  readonly PAUSEPOINT_PROBES: boolean;
  /** The origin MCP App views are isolated on (PAUSEPOINT_SANDBOX_ORIGIN at build, vite.config.ts); '' when none. */
  readonly PAUSEPOINT_SANDBOX_ORIGIN: string;
}
