/**
 * Runs the fake server in its own process for benchmarks, scripted over /_control/*:
 *   npx tsx tests/fake-llm/cli.ts --port 8787 [--models a,b] [--require-key sk-…]
 */
import { parseArgs } from 'node:util';
import { startFakeLlm } from './start-fake-llm.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    models: { type: 'string' },
    'require-key': { type: 'string' },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`fake-llm: --port must be 0–65535, got ${values.port}`);
  process.exit(2);
}

const llm = await startFakeLlm({
  port,
  models: values.models?.split(',').map((id) => id.trim()).filter(Boolean),
  requireKey: values['require-key'],
});
// Scripts wait for this exact line to learn the port; keep its shape.
console.log(`fake-llm listening on ${llm.baseUrl}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void llm.close().then(() => process.exit(0));
  });
}
