import { describe, expect, it } from 'vitest';
import { makePausePoint } from '../engine/testing/make-records.ts';
import { DecisionEntryBody } from './audit-entry.ts';
import { buildAuditEntry } from './build-audit-entry.ts';

describe('an audit entry of a call an MCP App’s view proposed', () => {
  it('says the view proposed it, and from which call row; a model’s call says nothing more', () => {
    const decidedBy = { tabId: 't1', deviceId: 'd1', label: 'Chromium' };
    const fromView = makePausePoint({ status: 'resolved', resolution: 'approve', resolvedAt: 2, decidedBy, origin: 'rule', fromView: { viewCallId: 'call_view' } });
    const built = buildAuditEntry(fromView, undefined, undefined);
    expect(built.ok && built.body).toMatchObject({ proposed_by: 'view', view_call_id: 'call_view', decision_origin: 'rule', decided_by: { device_id: 'd1', label: 'Chromium', tab_id: 't1' } });
    expect(built.ok && DecisionEntryBody.safeParse(built.body).success).toBe(true);

    const model = buildAuditEntry(makePausePoint({ status: 'resolved', resolution: 'approve', resolvedAt: 2, decidedBy }), undefined, undefined);
    expect(model.ok && model.body).not.toHaveProperty('proposed_by');
    expect(model.ok && model.body).not.toHaveProperty('view_call_id');
  });
});
