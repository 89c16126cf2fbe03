import { describe, expect, it } from 'vitest';
import { harness, pending, say, transferTool } from './testing/harness.ts';

const transfer = (amount: number, to: string) => ({ name: 'transfer', args: { amount, to } });

describe('irreversible calls', () => {
  it('marks the gate card of a call the tool calls irreversible, and only that one', async () => {
    const executions: { amount: number; to: string }[] = [];
    // Transfers to strangers cannot be clawed back: the tool says so per call.
    const tool = { ...transferTool(executions), irreversible: (args: unknown) => (args as { to: string }).to !== 'alice' };
    const h = harness([{ calls: [transfer(500, 'mallory')] }], { tools: [tool] });
    const id = await say(h, null, 'pay');
    const [card] = await pending(h, id);
    expect(card).toMatchObject({ origin: 'gate', irreversible: true });

    const h2 = harness([{ calls: [transfer(500, 'alice')] }], { tools: [tool] });
    const id2 = await say(h2, null, 'pay');
    const [plain] = await pending(h2, id2);
    expect(plain?.origin).toBe('gate');
    expect(plain).not.toHaveProperty('irreversible');
  });
});
