/**
 * Imported first by every entry (main.ts, the agent worker's run-agent.ts, sw.ts), before any schema
 * exists. The Content-Security-Policy forbids eval; zod would otherwise probe
 * for it with `new Function('')` as it builds its first object schema, a probe
 * the policy reports as a violation even though zod catches the error. Without
 * eval zod parses with its ordinary, slightly slower path.
 *
 * Set on the object zod itself keeps its configuration in
 * (`globalThis.__zod_globalConfig`, which zod's core adopts when it loads and
 * `z.config()` writes into) rather than through `z.config`: importing zod here
 * would put zod's core (≈ 4 kB gzip) into the page's start-up JavaScript,
 * which otherwise loads zod only on demand. zod-config.test.ts checks that zod
 * reads this object.
 */
const host = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
host.__zod_globalConfig ??= {};
host.__zod_globalConfig.jitless = true;

export {};
