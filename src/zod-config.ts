import { z } from 'zod';

/**
 * Imported first by every entry (main.ts, agent.worker.ts), before any schema
 * exists. The Content-Security-Policy forbids eval; zod would otherwise probe
 * for it with `new Function('')` as it builds its first object schema, a probe
 * the policy reports as a violation even though zod catches the error. Without
 * eval zod parses with its ordinary, slightly slower path.
 */
z.config({ jitless: true });
