import { describe, expect, it } from 'vitest';
import type { PausePoint } from './records/index.ts';
import { httpMethodRisk, mcpAnnotationRisk, RISK_TEXT, riskOfPause, waitForApprovalRisk, type RiskHints } from './risk-label.ts';
import { harness, pending, say, transferTool } from './testing/harness.ts';
import type { ToolDefinition } from './tool-definition.ts';

const card = (origin: PausePoint['origin'], payload: unknown = null, kind: PausePoint['kind'] = 'approval') => ({ origin, kind, payload });

describe('risk labels', () => {
  it('are shown as words', () => {
    expect(RISK_TEXT).toEqual({ reads: 'Reads', changes: 'Changes', destructive: 'Destructive', unknown: 'Unknown effect' });
  });

  it('an HTTP method: GET, HEAD and OPTIONS read, DELETE destroys, the rest change', () => {
    expect(['GET', 'HEAD', 'OPTIONS', 'get'].map(httpMethodRisk)).toEqual(['reads', 'reads', 'reads', 'reads']);
    expect(httpMethodRisk('DELETE')).toBe('destructive');
    expect(['POST', 'PUT', 'PATCH', 'PROPFIND'].map(httpMethodRisk)).toEqual(['changes', 'changes', 'changes', 'changes']);
  });

  describe('MCP annotations', () => {
    const cases: [RiskHints | undefined, untrusted: string, trusted: string][] = [
      // No claim at all: the spec's defaults (not read-only, destructive).
      [undefined, 'destructive', 'destructive'],
      [{}, 'destructive', 'destructive'],
      // A claim of safety lowers the label only as far as Changes, unless the server is trusted.
      [{ readOnlyHint: true }, 'changes', 'reads'],
      [{ destructiveHint: false }, 'changes', 'changes'],
      [{ readOnlyHint: false, destructiveHint: false }, 'changes', 'changes'],
      // A claim of harm always counts, even beside a claim of reading only.
      [{ destructiveHint: true }, 'destructive', 'destructive'],
      [{ readOnlyHint: true, destructiveHint: true }, 'destructive', 'destructive'],
      // Idempotent and open-world say how far a change goes, not whether there is one.
      [{ readOnlyHint: true, idempotentHint: true, openWorldHint: false }, 'changes', 'reads'],
      [{ idempotentHint: true }, 'destructive', 'destructive'],
      [{ destructiveHint: false, idempotentHint: true, openWorldHint: false }, 'changes', 'changes'],
      [{ openWorldHint: true, destructiveHint: false }, 'changes', 'changes'],
    ];
    it.each(cases)('%j: %s from an untrusted server, %s from a trusted one', (hints, untrusted, trusted) => {
      expect(mcpAnnotationRisk(hints, false)).toBe(untrusted);
      expect(mcpAnnotationRisk(hints, true)).toBe(trusted);
    });

  });

  it('wait_for_approval cards are labelled by their kind: each is an unknown effect', () => {
    expect(waitForApprovalRisk('approval')).toBe('unknown');
    expect(waitForApprovalRisk('choice')).toBe('unknown');
    expect(waitForApprovalRisk('data_entry')).toBe('unknown');
    expect(riskOfPause(undefined, card('model', { amount: 5 }, 'choice'))).toBe('unknown');
  });

  it('a spending limit card changes (it spends); a server question and a tool that says nothing are unknown', () => {
    expect(riskOfPause(undefined, card('limit'))).toBe('changes');
    expect(riskOfPause({ risk: () => 'reads' }, card('elicitation', {}, 'data_entry'))).toBe('unknown');
    const silent: Pick<ToolDefinition, 'risk'> = {};
    expect(riskOfPause(silent, card('gate', {}))).toBe('unknown');
    expect(riskOfPause(undefined, card('gate', {}))).toBe('unknown');
  });

  it('is stored on the card when it is made', async () => {
    const executions: { amount: number; to: string }[] = [];
    const withRisk = harness([{ calls: [{ name: 'transfer', args: { amount: 500, to: 'bob' } }] }], {
      tools: [{ ...transferTool(executions), risk: () => 'changes' }],
    });
    const id = await say(withRisk, null, 'pay bob');
    expect((await pending(withRisk, id)).map((p) => p.risk)).toEqual(['changes']);

    const asked = harness([{ calls: [{ name: 'wait_for_approval', args: { title: 'Go?', description: 'Go on.' } }] }]);
    const id2 = await say(asked, null, 'ask me');
    expect((await pending(asked, id2)).map((p) => p.risk)).toEqual(['unknown']);
  });
});
