import { Engine } from '../engine/engine.ts';
import { toWireError, UnrecordedFailure } from '../engine/errors.ts';
import { ACTIVE_STATES, type DecidedBy } from '../engine/records/index.ts';
import { withDemoSink } from '../model/demo-sink.ts';
import { createHttpRequestTool } from '../tools/http-request.ts';
import { createNotesTools } from '../tools/notes-tools.ts';
import { DexieRules, enableRule, setAlwaysAllowIrreversible, setAskForEverything } from '../storage/approval-rules-repo.ts';
import { deleteConversation, renameConversation } from '../storage/conversations-repo.ts';
import type { PausepointDb } from '../storage/db.ts';
import { DexieStorage } from '../storage/dexie-storage.ts';
import { DexieNotesStore } from '../storage/notes-store.ts';
import { deviceId, readSettings } from '../storage/settings-repo.ts';
import { browserNetwork, randomIds, systemClock } from './browser-runtime.ts';
import { deviceLabel } from './device-label.ts';
import { engineSettings } from './engine-settings.ts';
import { McpHost } from './mcp-host.ts';
import { modelFor, modelFromSettings } from './model-from-settings.ts';
import type { Intent, WorkerEvent } from './protocol.ts';
import { WebLocks } from './web-locks.ts';

const EXPIRY_SWEEP_MS = 15_000;

/**
 * The engine as one tab's worker hosts it: Dexie storage, the openai adapter,
 * Web Locks, and the tools. It also watches every conversation another tab is
 * running, so that when that tab closes this one carries the turn on.
 */
export class AgentHost {
  readonly engine: Engine;
  readonly #mcp: McpHost;
  readonly #watching = new Set<string>();
  readonly #decidedBy: Promise<DecidedBy>;
  readonly #stops = new BroadcastChannel('pausepoint:stop');

  constructor(
    private readonly db: PausepointDb,
    readonly tabId: string,
    private readonly emit: (event: WorkerEvent) => void,
  ) {
    // The demo's requests land in its sink inside this thread (demo-sink.ts); every other one goes out.
    const tools = [...createNotesTools(new DexieNotesStore(db)), createHttpRequestTool({ fetch: withDemoSink((input, init) => fetch(input, init)) })];
    this.#mcp = new McpHost(db, new Set(['wait_for_approval', ...tools.map((tool) => tool.name)]));
    this.engine = new Engine({
      storage: new DexieStorage(db),
      rules: new DexieRules(db),
      model: async () => modelFromSettings(await readSettings(db)),
      settings: engineSettings(db),
      tools,
      dynamicTools: this.#mcp.tools,
      clock: systemClock,
      ids: randomIds,
      network: browserNetwork,
      locks: new WebLocks(),
      owner: tabId,
      onPause: (p) => this.emit({ type: 'approval_requested', pausePointId: p.id, conversationId: p.conversationId, title: p.title }),
      onError: (error, conversationId) => {
        console.error('Pausepoint: a background run failed', error);
        if (error instanceof UnrecordedFailure) this.emit({ type: 'run_failed', conversationId, message: error.message });
      },
    });
    this.#decidedBy = deviceId(db).then((id) => ({ tabId, deviceId: id, label: deviceLabel(navigator.userAgent) }));
    this.#stops.onmessage = (event: MessageEvent<unknown>) => {
      if (typeof event.data === 'string') this.engine.stop(event.data);
    };
  }

  /**
   * Expires the cards that fell due while no tab was open and recovers
   * orphaned runs, both now, then keeps watching for new ones and for due
   * expiries. (A due card is refused when decided anyway; expiring it at once
   * is what makes every tab show it expired, and tells the model.)
   */
  start(): void {
    void this.#expireDue();
    // Recovered runs may call MCP tools: their servers' tools are known first.
    void this.#mcp.ready.then(() => this.#sweep());
    // Polling is enough here: a closed tab is noticed within seconds, and an
    // indexed read of the active conversations only is cheap next to a live query per tab.
    setInterval(() => void this.#sweep(), 3_000);
    setInterval(() => void this.#expireDue(), EXPIRY_SWEEP_MS);
  }

  async handle(intent: Intent): Promise<unknown> {
    // A run (or a decision's check of edited arguments) may need the stored MCP servers' tools.
    if (intent.type === 'send' || intent.type === 'decide' || intent.type === 'approveWithRule' || intent.type === 'retry') await this.#mcp.ready;
    switch (intent.type) {
      case 'mcpAdd':
      case 'mcpSetEnabled':
      case 'mcpSetTrusted':
      case 'mcpSetToolEnabled':
      case 'mcpRemove':
        return this.#mcp.handle(intent);
      case 'send':
        return this.engine.send(intent.conversationId, intent.text);
      case 'decide':
        return this.engine.decide(intent.pausePointId, intent.decision, await this.#decidedBy);
      case 'stop':
        this.#stopEverywhere(intent.conversationId);
        return null;
      case 'retry':
        return this.engine.retry(intent.conversationId);
      case 'createConversation':
        return { conversationId: await this.engine.createConversation(intent.title) };
      case 'renameConversation':
        await renameConversation(this.db, intent.conversationId, intent.title);
        return null;
      case 'deleteConversation':
        // Whichever tab runs it stops before its next step, rather than acting for a conversation that is gone.
        this.#stopEverywhere(intent.conversationId);
        await deleteConversation(this.db, intent.conversationId);
        return null;
      case 'addRule':
        return { ruleId: (await this.engine.addRule(intent.draft, await this.#decidedBy)).id };
      case 'approveWithRule':
        return this.engine.approveWithRule(intent.pausePointId, intent.decision, intent.draft, await this.#decidedBy);
      case 'removeRule':
        await this.engine.removeRule(intent.ruleId, await this.#decidedBy);
        return null;
      case 'enableRule':
        await enableRule(this.db, intent.ruleId, { by: await this.#decidedBy });
        return null;
      case 'setAlwaysAllowIrreversible':
        await setAlwaysAllowIrreversible(this.db, intent.on);
        return null;
      case 'setAskForEverything':
        await setAskForEverything(this.db, intent.on);
        return null;
      case 'listModels':
        return modelFor(intent).listModels();
    }
  }

  /** Stops the conversation's run in this tab, or asks the other tabs to (only one runs it). */
  #stopEverywhere(conversationId: string): void {
    if (!this.engine.stop(conversationId)) this.#stops.postMessage(conversationId);
  }

  async #sweep(): Promise<void> {
    const conversations = await this.db.conversations.where('state.kind').anyOf([...ACTIVE_STATES]).toArray();
    for (const conversation of conversations) {
      if (this.#watching.has(conversation.id)) continue;
      this.#watching.add(conversation.id);
      this.engine
        .watch(conversation.id)
        .catch((error: unknown) => console.error('Pausepoint: recovering a conversation failed', toWireError(error)))
        .finally(() => this.#watching.delete(conversation.id));
    }
  }

  async #expireDue(): Promise<void> {
    const now = Date.now();
    const due = await this.db.pausePoints.where('status').equals('pending').filter((p) => p.expiresAt !== null && p.expiresAt <= now).toArray();
    for (const conversationId of new Set(due.map((p) => p.conversationId))) {
      // The run expires them and tells the model; if another tab owns the conversation it waits its turn.
      this.engine.run(conversationId).catch((error: unknown) => console.error('Pausepoint: expiring approvals failed', toWireError(error)));
    }
  }
}
