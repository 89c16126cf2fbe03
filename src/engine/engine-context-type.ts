import type { ClockPort, IdPort, SettingsPort, StoragePort } from './ports.ts';
import type { PausePoint } from './records/index.ts';
import type { ToolRegistry } from './tool-registry.ts';

/** What the engine's parts share: the ports, resolved options, and this tab's identity. */
export interface EngineContext {
  storage: StoragePort;
  tools: ToolRegistry;
  clock: ClockPort;
  ids: IdPort;
  owner: string;
  settings: SettingsPort;
  onPause(pausePoint: PausePoint): void;
}
