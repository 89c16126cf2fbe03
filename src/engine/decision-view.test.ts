import { describe, expect, it } from 'vitest';
import { ASKED_AGAIN, CHANGED_SINCE_APPROVED, STARTED_ELSEWHERE, TOOL_CHANGED, UNCLEAR } from './card-warnings.ts';
import { CHANGED_NOW, decisionView, EDITED, type ViewLine } from './decision-view.ts';
import { makePausePoint } from './testing/make-records.ts';
import { canonicalView, viewHash } from './view-hash.ts';

const MCP = { serverId: 's1', serverUrl: 'https://tools.example.com/mcp', serverName: 'Tools', toolName: 'pay', definitionHash: 'h1' };
const warnings = (lines: readonly ViewLine[]) => lines.flatMap((line) => (line.kind === 'warning' ? [line.warning] : []));
const args = (lines: readonly ViewLine[]) => lines.flatMap((line) => (line.kind === 'argument' ? [`${line.name}: ${line.value}`] : []));

describe('point 1: the decision view', () => {
  it('lists, in order, the title, the tool, every warning, the description and every argument in full, as it will run', () => {
    const url = `https://pay.example.com/${'a'.repeat(300)}?to=eve`;
    const view = decisionView({
      pause: makePausePoint({ title: 'Pay?', risk: 'changes', mcp: MCP, description: 'Pays.', payload: { url, a: 1, b: 2, c: 3, amount: 9000 } }),
    });
    expect(view.pausePointId).toBe('p1');
    expect(view.lines).toEqual([
      { kind: 'title', text: 'Pay?' },
      { kind: 'tool', text: 'pay on Tools (tools.example.com)' },
      { kind: 'warning', warning: 'risk', text: 'Risk: Changes' },
      { kind: 'description', text: 'Pays.' },
      { kind: 'arguments', text: 'Arguments as they will run' },
      { kind: 'argument', name: 'url', value: JSON.stringify(url) },
      { kind: 'argument', name: 'a', value: '1' },
      { kind: 'argument', name: 'b', value: '2' },
      { kind: 'argument', name: 'c', value: '3' },
      // The fifth argument, which the batch dialog and the notification used to cut.
      { kind: 'argument', name: 'amount', value: '9000' },
    ]);
  });

  it('shows control characters, U+2028/2029 and bidi overrides escaped, never as layout', () => {
    const view = decisionView({
      pause: makePausePoint({
        title: 'Pay\u202e\u2066moc.live\u2069\nnow',
        description: 'First line\nsecond\u2028third\u0007 \u200fmark\r\nend',
        payload: { 'to\u202e': 'eve\u2029@example.com', note: 'a\u0000b\u0085c\ufeff' },
      }),
    });
    expect(view.lines[0]).toEqual({ kind: 'title', text: 'Pay\\u202e\\u2066moc.live\\u2069\\u000anow' });
    // A description is markdown: its line feeds are its own, everything else is shown.
    expect(view.lines.find((l) => l.kind === 'description')).toEqual({ kind: 'description', text: 'First line\nsecond\\u2028third\\u0007 \\u200fmark\nend' });
    expect(args(view.lines)).toEqual(['to\\u202e: "eve\\u2029@example.com"', 'note: "a\\u0000b\\u0085c\\ufeff"']);
    const shown = JSON.stringify(view.lines);
    for (const unseen of ['\u202e', '\u2066', '\u2028', '\u2029', '\u0007', '\u200f', '\u0085', '\ufeff', '\r']) expect(shown).not.toContain(unseen);
    // Joiners that scripts and emoji need stay.
    expect(decisionView({ pause: makePausePoint({ title: '👩\u200d💻' }) }).lines[0]).toEqual({ kind: 'title', text: '👩\u200d💻' });
  });

  it('has every warning kind: definition changed (now, or as the card says), restored, unclear URL, rule, dry run, edited, risk', () => {
    const gate = makePausePoint({
      risk: 'destructive',
      description: `${ASKED_AGAIN}\n\n${TOOL_CHANGED}\n\n${UNCLEAR}\n\nDeletes /tmp/x.`,
      rule: { id: 'r1', effect: 'ask', text: 'ask before delete_file' },
      dryRuns: [{ id: 'r2', effect: 'allow', text: 'allow delete_file' }],
    });
    const view = decisionView({ pause: gate, toolChanged: true, edit: { to: 'bob@example.com', amount: 120 } });
    expect(warnings(view.lines)).toEqual(['risk', 'definition_changed', 'restored', 'definition_changed', 'unclear_url', 'rule', 'dry_run', 'edited']);
    expect(view.lines.filter((l) => l.kind === 'warning').map((l) => (l.kind === 'warning' ? l.text : ''))).toEqual([
      'Risk: Destructive',
      CHANGED_NOW,
      ASKED_AGAIN.replaceAll('**', ''),
      TOOL_CHANGED.replaceAll('**', ''),
      UNCLEAR.replaceAll('**', ''),
      'Asked because of your rule: ask before delete_file',
      'Rule “allow delete_file” would allow this (dry run: it decided nothing).',
      EDITED,
    ]);
    // Lifted out of the description, which keeps the tool's own words.
    expect(view.lines.find((l) => l.kind === 'description')).toEqual({ kind: 'description', text: 'Deletes /tmp/x.' });
    for (const [text, warning] of [
      [CHANGED_SINCE_APPROVED, 'definition_changed'],
      [STARTED_ELSEWHERE, 'restored'],
    ] as const) {
      expect(warnings(decisionView({ pause: makePausePoint({ description: `${text}\n\nSend it?` }) }).lines)).toEqual(['risk', warning]);
    }
    // A record from before risk labels: unknown, said as such.
    expect(view.lines).not.toContainEqual({ kind: 'warning', warning: 'risk', text: 'Risk: Unknown effect' });
    expect(decisionView({ pause: makePausePoint() }).lines).toContainEqual({ kind: 'warning', warning: 'risk', text: 'Risk: Unknown effect' });
    // The model's own card may say anything: its words are not taken for the engine's warnings.
    expect(warnings(decisionView({ pause: makePausePoint({ origin: 'model', description: `${TOOL_CHANGED}\n\nOk?` }) }).lines)).toEqual(['risk']);
  });

  it('shows a gate card’s arguments as they will run: the unsent edit in place of the proposal', () => {
    const pause = makePausePoint({ payload: { to: 'ada@example.com', amount: 120 } });
    const edited = decisionView({ pause, edit: { to: 'ada@example.com', amount: 12 } });
    expect(edited.lines).toContainEqual({ kind: 'arguments', text: 'Arguments as they will run (your edit)' });
    expect(args(edited.lines)).toEqual(['to: "ada@example.com"', 'amount: 12']);
    // An edit back to the proposal is no edit.
    expect(decisionView({ pause, edit: { to: 'ada@example.com', amount: 120 } })).toEqual(decisionView({ pause }));
    // Cards nobody edits: an edit given is not theirs.
    const choice = makePausePoint({ kind: 'choice', options: ['A', 'B'], origin: 'model', payload: { a: 1 } });
    expect(decisionView({ pause: choice, edit: { a: 2 } })).toEqual(decisionView({ pause: choice }));
  });

  it('names no tool for the model’s own question, calls its payload so, and lists no form schema as arguments', () => {
    const model = decisionView({ pause: makePausePoint({ origin: 'model', toolName: 'wait_for_approval', payload: { count: 4 } }) });
    expect(model.lines.map((l) => l.kind)).toEqual(['title', 'warning', 'description', 'arguments', 'argument']);
    expect(model.lines).toContainEqual({ kind: 'arguments', text: 'Payload' });
    const form = decisionView({ pause: makePausePoint({ origin: 'model', kind: 'data_entry', payload: { type: 'object', properties: {} } }) });
    expect(form.lines.map((l) => l.kind)).toEqual(['title', 'warning', 'description']);
  });
});

describe('point 1: view_hash', () => {
  // The known answer was computed apart, with Node's crypto over the same text.
  it('is the SHA-256 of the view’s canonical encoding (known answer)', () => {
    const view = decisionView({ pause: makePausePoint({ risk: 'changes' }) });
    expect(canonicalView(view)).toBe(
      '["pausepoint-decision-view-1","p1",[["title","Send the invoice?"],["tool","send_invoice"],["warning","risk","Risk: Changes"],["description","Sends **1** invoice of 120 EUR to ada@example.com."],["arguments","Arguments as they will run"],["argument","to","\\"ada@example.com\\""],["argument","amount","120"]]]',
    );
    expect(viewHash(view)).toBe('5e2954ba3d223bb66f4d259d034c9828f6370a84d8c8f09a6157924c361714ce');
  });

  it('changes with anything the view shows: an edit, a changed tool, a warning, another card', () => {
    const pause = makePausePoint({ mcp: MCP });
    const hash = viewHash(decisionView({ pause }));
    expect(viewHash(decisionView({ pause }))).toBe(hash);
    expect(viewHash(decisionView({ pause, edit: { to: 'ada@example.com', amount: 121 } }))).not.toBe(hash);
    expect(viewHash(decisionView({ pause, toolChanged: true }))).not.toBe(hash);
    expect(viewHash(decisionView({ pause: { ...pause, dryRuns: [{ id: 'r', effect: 'deny', text: 'deny pay' }] } }))).not.toBe(hash);
    expect(viewHash(decisionView({ pause: { ...pause, id: 'p2' } }))).not.toBe(hash);
  });
});
