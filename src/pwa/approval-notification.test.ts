import { describe, expect, it } from 'vitest';
import { makePausePoint } from '../engine/testing/make-records.ts';
import { TOOL_CHANGED } from '../engine/decide-by-rules.ts';
import { ASKED_AGAIN } from '../engine/card-warnings.ts';
import type { McpServerRecord, McpToolRecord } from '../storage/records/mcp-server-record.ts';
import {
  acceptsNotificationActions,
  alreadyDecidedNotification,
  approvalNotification,
  definitionChanged,
  readNotificationData,
  shortDescription,
  viewText,
} from './approval-notification.ts';
import { decisionView } from '../engine/decision-view.ts';
import { viewHash } from '../engine/view-hash.ts';
import type { PausePoint } from '../engine/records/index.ts';

const textOf = (pause: PausePoint) => viewText(decisionView({ pause }));

const MCP = { serverId: 's1', serverUrl: 'https://tools.example.com/mcp', serverName: 'Tools', toolName: 'delete_file', definitionHash: 'h-now' };
function server(tool: Partial<McpToolRecord> = {}): McpServerRecord {
  const definition = { name: 'delete_file', description: 'Deletes a file', inputSchema: { type: 'object' as const } };
  return { id: 's1', tools: [{ definition, hash: 'h-now', pinned: { hash: 'h-now', definition, at: 0 }, enabled: true, ...tool }] } as unknown as McpServerRecord;
}

describe('approval notifications', () => {
  it('a plain approval offers Approve and Decline, tagged with its card, renders its whole decision view and carries the view’s hash', () => {
    const pause = makePausePoint({ id: 'p1', conversationId: 'c1', title: 'Send the invoice?', description: 'Sends **1** invoice.' });
    const { title, options } = approvalNotification(pause);
    expect(title).toBe('Approval needed: Send the invoice?');
    expect(options).toMatchObject({
      body: 'Risk: Unknown effect · send_invoice\nSends 1 invoice.\nto: "ada@example.com"\namount: 120',
      tag: 'p1',
      data: { pausePointId: 'p1', conversationId: 'c1', viewHash: viewHash(decisionView({ pause })) },
    });
    expect(options.actions.map((a) => a.title)).toEqual(['Approve', 'Decline']);
  });

  it('issue 32: the body is the decision view’s lines — every warning, the description and every argument — or no Approve at all', () => {
    // A card the view warns about (asked again after a restore): the warning is a line of the notification, counted.
    const warned = makePausePoint({ description: `${ASKED_AGAIN}\n\nSend it?`, payload: { to: 'eve' } });
    expect(textOf(warned).text.split('\n')).toEqual(['Risk: Unknown effect · send_invoice', ASKED_AGAIN.replaceAll('**', ''), 'Send it?', 'to: "eve"']);
    // The description of a gate card, which the notification once left out, now counts: too long here, so no Approve.
    const described = makePausePoint({ description: 'Sends the quarterly invoice bundle, with every attachment, to the finance team and the auditors.' });
    expect(textOf(described).whole).toBe(false);
    const { options } = approvalNotification(described);
    expect(options.actions).toEqual([]);
    expect(options.data.viewHash).toBeUndefined();
    // A tool that changed since the card was made is a warning of the view: never Approve.
    const mcpCall = makePausePoint({ mcp: MCP, description: 'Delete it?', payload: { path: '/tmp/x' } });
    expect(acceptsNotificationActions(mcpCall)).toBe(true);
    expect(acceptsNotificationActions(mcpCall, { toolChanged: true })).toBe(false);
    expect(approvalNotification(mcpCall, { toolChanged: true }).options.actions).toEqual([]);
  });

  it('point 9: Approve only where the text shows the whole view within the platform limit; otherwise the notification opens the card', () => {
    const short = makePausePoint({ toolName: 'http_request', description: 'Posts it.', payload: { method: 'POST', url: 'https://api.example.com/pay' } });
    expect(textOf(short)).toMatchObject({ text: 'Risk: Unknown effect · http_request\nPosts it.\nmethod: "POST"\nurl: "https://api.example.com/pay"', whole: true });
    expect(acceptsNotificationActions(short)).toBe(true);
    // An argument the platform would cut (a body past the fourth line): no actions, the description and the tap hint instead.
    const long = makePausePoint({ toolName: 'http_request', description: 'Posts it.', payload: { method: 'POST', url: 'https://api.example.com/pay', body: 'amount=120&to=ada&note='.repeat(4) } });
    expect(textOf(long).whole).toBe(false);
    expect(acceptsNotificationActions(long)).toBe(false);
    const { options } = approvalNotification(long);
    expect(options.actions).toEqual([]);
    expect(options.body).toContain('Tap to answer in the app.');
    // Too many arguments to show, each short.
    expect(acceptsNotificationActions(makePausePoint({ description: 'Ok?', payload: { a: 1, b: 2, c: 3, d: 4 } }))).toBe(false);
    // An MCP call names its server and host, as the view does.
    expect(textOf(makePausePoint({ mcp: MCP, description: '', payload: { path: '/tmp/x' } })).text).toBe('Risk: Unknown effect · delete_file on Tools (tools.example.com)\npath: "/tmp/x"');
    // The model's own question: its whole description and payload, and a title the platform shows whole.
    expect(acceptsNotificationActions(makePausePoint({ origin: 'model', description: 'Publish the post?', payload: null }))).toBe(true);
    expect(acceptsNotificationActions(makePausePoint({ origin: 'model', description: 'Publish the post?\n\n```\nrm -rf /srv/www\n```', payload: null }))).toBe(true);
    expect(textOf(makePausePoint({ origin: 'model', description: 'See [the draft](https://evil.example/x).', payload: null })).text).toBe('Risk: Unknown effect · See the draft (https://evil.example/x).');
    expect(acceptsNotificationActions(makePausePoint({ origin: 'model', description: 'word '.repeat(40), payload: null }))).toBe(false);
    expect(acceptsNotificationActions(makePausePoint({ origin: 'model', title: 'A title far too long for one line of a notification', description: 'Ok?', payload: null }))).toBe(false);
  });

  it('point 9: never Approve for a tool whose definition changed', () => {
    const mcpCall = makePausePoint({ mcp: MCP, description: 'Delete it?', payload: { path: '/tmp/x' } });
    expect(definitionChanged(mcpCall, [server()])).toBe(false);
    expect(acceptsNotificationActions(mcpCall, { definitionChanged: false })).toBe(true);
    // Listed with another definition than the pinned one, or than the one the card was made for, or gone.
    expect(definitionChanged(mcpCall, [server({ hash: 'h-new' })])).toBe(true);
    expect(definitionChanged(mcpCall, [server({ pinned: { hash: 'h-old', definition: { name: 'delete_file', description: 'Deletes a file, or mails it', inputSchema: { type: 'object' } }, at: 0 } })])).toBe(true);
    expect(definitionChanged(makePausePoint({ mcp: { ...MCP, definitionHash: 'h-then' } }), [server()])).toBe(true);
    expect(definitionChanged(mcpCall, [])).toBe(true);
    // A built-in tool that changed since a rule allowed it.
    expect(definitionChanged(makePausePoint({ description: `${TOOL_CHANGED}\n\nSend it?` }), [])).toBe(true);
    const { options } = approvalNotification(mcpCall, { definitionChanged: true });
    expect(options.actions).toEqual([]);
    expect(options.body).toContain('Tap to answer in the app.');
  });

  it('point 1: a notification of a 5-line MCP call — the whole view as shown (risk label and title prefix counted) or only Open', () => {
    const mcp = { ...MCP, serverUrl: 'https://pay.example.com/mcp', toolName: 'transfer_money', serverName: 'Pay' };
    // Four lines as written; five once the tool's line, led by the risk label, wraps: the last one, amount: 9000, would be cut.
    const pause = makePausePoint({ mcp, risk: 'changes', description: '', payload: { to: 'eve', currency: 'EUR', amount: 9000 } });
    expect(textOf(pause).text).toBe('Risk: Changes · transfer_money on Pay (pay.example.com)\nto: "eve"\ncurrency: "EUR"\namount: 9000');
    expect(textOf(pause).whole).toBe(false);
    const { options } = approvalNotification(pause);
    expect(options.actions).toEqual([]);
    expect(options.body).toContain('Tap to answer in the app.');
    // One line fewer: the whole view shows, and Approve is offered with it.
    const fits = approvalNotification({ ...pause, payload: { to: 'eve', amount: 9000 } });
    expect(fits.options.actions.map((a) => a.title)).toEqual(['Approve', 'Decline']);
    expect(fits.options.body).toBe('Risk: Changes · transfer_money on Pay (pay.example.com)\nto: "eve"\namount: 9000');
    // A title that fits alone but not after its prefix: only Open.
    expect(approvalNotification({ ...pause, payload: { amount: 9000 }, title: 'Transfer nine thousand euros to Eve now' }).options.actions).toEqual([]);
  });

  it('point 1: control characters, U+2028 and bidi overrides in a notification are shown escaped', () => {
    const { title, options } = approvalNotification(makePausePoint({ title: 'Pay \u202eeve', description: 'Pay?', payload: { to: 'a\u2028b' } }));
    expect(title).toBe('Approval needed: Pay \\u202eeve');
    expect(options.body).toContain('to: "a\\u2028b"');
    expect(options.body).not.toContain('\u2028');
  });

  it('a card that needs input has no actions: its tap opens the app', () => {
    for (const pause of [
      makePausePoint({ kind: 'choice', options: ['A', 'B'], origin: 'model' }),
      makePausePoint({ kind: 'data_entry', origin: 'model' }),
      makePausePoint({ origin: 'unknown_outcome' }),
      makePausePoint({ origin: 'elicitation', kind: 'data_entry' }),
    ]) {
      expect(acceptsNotificationActions(pause)).toBe(false);
      const { options } = approvalNotification(pause);
      expect(options.actions).toEqual([]);
      expect(options.body).toContain('Tap to answer in the app.');
    }
    expect(acceptsNotificationActions(makePausePoint({ status: 'resolved', resolution: 'approve' }))).toBe(false);
  });

  it('starts with the card\'s risk label, as a word', () => {
    expect(approvalNotification(makePausePoint({ risk: 'destructive', description: 'Deletes note n1.' })).options.body).toMatch(/^Risk: Destructive · send_invoice\n/);
    expect(approvalNotification(makePausePoint({ risk: 'reads', description: 'GET /x' })).options.body).toMatch(/^Risk: Reads · /);
    expect(approvalNotification(makePausePoint({ risk: 'changes', kind: 'choice', options: ['a'], origin: 'model', description: 'Pick' })).options.body).toBe(
      'Changes: Pick Tap to answer in the app.',
    );
  });

  it('a reminder says it is one and alerts again under the same tag', () => {
    const { title, options } = approvalNotification(makePausePoint({ id: 'p1', title: 'Pay' }), { reminder: true });
    expect(title).toBe('Still waiting: Pay');
    expect(options).toMatchObject({ tag: 'p1', renotify: true });
  });

  it('the description becomes one short line of plain text', () => {
    expect(shortDescription('# Plan\n\nEmail **1,204** [subscribers](https://x.example).\n```\ncode\n```\nDone.')).toBe('Plan Email 1,204 subscribers. Done.');
    const long = shortDescription('word '.repeat(100));
    expect(long.length).toBeLessThanOrEqual(140);
    expect(long.endsWith('…')).toBe(true);
  });

  it('a late action is answered with a notification that says so and offers nothing', () => {
    const { title, options } = alreadyDecidedNotification('Pay', { pausePointId: 'p1', conversationId: 'c1' }, 'resolved');
    expect(title).toBe('Already decided: Pay');
    expect(options.actions).toEqual([]);
    // Not the card's own tag, which closing the card's notifications reaches.
    expect(options.tag).toBe('p1:outcome');
  });

  it('notification data read back is checked', () => {
    expect(readNotificationData({ pausePointId: 'p1', conversationId: 'c1' })).toEqual({ pausePointId: 'p1', conversationId: 'c1' });
    expect(readNotificationData({ pausePointId: 1 })).toBeNull();
    expect(readNotificationData(null)).toBeNull();
  });
});
