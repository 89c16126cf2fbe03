import { DEMO_SINK_URL } from './demo-sink.ts';
import type { DemoTurn } from './demo-turn.ts';

/** One scripted assistant message: text, tool calls, or both. */
export interface DemoReply {
  text?: string;
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
}

interface DemoRule {
  /** For readers and tests: which rule answered. */
  name: string;
  when: (turn: DemoTurn) => boolean;
  reply: (turn: DemoTurn) => DemoReply;
}

const said = (pattern: RegExp) => (turn: DemoTurn) => turn.kind === 'user' && pattern.test(turn.text);

/**
 * The demo model's whole behaviour, first match wins. Order matters where
 * words overlap: "delete my note" must delete, not save.
 */
const RULES: DemoRule[] = [
  {
    name: 'decision',
    when: (turn) => turn.kind === 'decision',
    reply: (turn) => ({ text: turn.kind === 'decision' ? afterDecision(turn.text, turn.toolResult) : '' }),
  },
  {
    name: 'delete-after-list',
    when: (turn) => turn.kind === 'tool_result' && turn.toolName === 'list_notes' && /\bdelete\b/i.test(turn.userText),
    reply: (turn) => {
      const id = turn.kind === 'tool_result' ? /"id"\s*:\s*"([^"]+)"/.exec(turn.content)?.[1] : undefined;
      if (id === undefined) return { text: 'There are no notes to delete yet. Say **note** and I will save one first.' };
      return {
        text: 'Deleting cannot be undone, so Pausepoint will ask you before the `delete_note` call runs.',
        toolCalls: [{ name: 'delete_note', arguments: { id } }],
      };
    },
  },
  {
    name: 'tool-result',
    when: (turn) => turn.kind === 'tool_result',
    reply: (turn) => ({
      text:
        turn.kind === 'tool_result'
          ? `The \`${turn.toolName}\` tool answered:\n\n${quote(turn.content)}\n\nThat is the end of this demo step. Try another command whenever you like.`
          : '',
    }),
  },
  {
    name: 'delete',
    when: said(/\bdelete\b/i),
    reply: () => ({ text: 'Let me look at your notes first.', toolCalls: [{ name: 'list_notes', arguments: {} }] }),
  },
  {
    name: 'form',
    when: said(/\bforms?\b/i),
    reply: () => ({ text: 'I need a few details from you before I can book this.', toolCalls: [{ name: 'wait_for_approval', arguments: FORM }] }),
  },
  {
    name: 'choice',
    when: said(/\bchoices?\b|\bchoose\b/i),
    reply: () => ({ text: 'This one is your call. Pick whichever suits you.', toolCalls: [{ name: 'wait_for_approval', arguments: CHOICE }] }),
  },
  {
    name: 'approval',
    when: said(/\bapprove\b|\bsend\b/i),
    reply: () => ({
      text: 'Sending email cannot be undone, so I will ask you first.',
      toolCalls: [{ name: 'wait_for_approval', arguments: APPROVAL }],
    }),
  },
  {
    name: 'http',
    when: said(/http|\bpost\b/i),
    reply: () => ({
      text:
        'A POST sends data to a server, so Pausepoint will ask you before the request goes out. In the demo it goes to a ' +
        'pretend server inside Pausepoint, the demo sink, which shows what it received: nothing leaves this browser.',
      toolCalls: [{ name: 'http_request', arguments: HTTP_POST }],
    }),
  },
  {
    name: 'note',
    when: said(/\bnotes?\b/i),
    reply: (turn) => ({
      text: 'Saving a note only touches this browser and can be deleted later, so it runs without asking.',
      toolCalls: [
        {
          name: 'save_note',
          arguments: { title: 'Note from the demo', body: `You asked me: “${turn.kind === 'user' ? turn.text.slice(0, 500) : ''}”` },
        },
      ],
    }),
  },
  { name: 'greeting', when: () => true, reply: () => ({ text: GREETING }) },
];

/** The scripted answer to a conversation, and which rule gave it. */
export function demoReply(turn: DemoTurn): DemoReply & { rule: string } {
  const rule = RULES.find((r) => r.when(turn)) ?? RULES[RULES.length - 1];
  if (!rule) throw new Error('demo script has no rules');
  const reply = rule.reply(turn);
  // A tool the app did not offer would only produce an "unknown tool" error: say so instead.
  const missing = reply.toolCalls?.find((call) => !turn.tools.has(call.name));
  if (missing) {
    return { rule: rule.name, text: `This part of the demo needs the \`${missing.name}\` tool, which this conversation does not offer.` };
  }
  return { rule: rule.name, ...reply };
}

function afterDecision(text: string, toolResult?: { toolName: string; content: string }): string {
  const heard = `Your decision reached me as:\n\n${quote(text)}`;
  if (toolResult) return `${heard}\n\nThen the \`${toolResult.toolName}\` tool answered:\n\n${quote(toolResult.content)}`;
  const declined = /^Approval [\w-]+: (decline|expired)\b/.test(text);
  const next = declined
    ? 'Understood: I will not go ahead, and nothing happens.'
    : 'Thank you. A real agent would now carry on with exactly that; this demo stops here, and nothing was actually sent.';
  return `${heard}\n\n${next}`;
}

/** A markdown blockquote of at most 600 characters. */
function quote(text: string): string {
  const cut = text.length > 600 ? `${text.slice(0, 600)}…` : text;
  return cut
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

const GREETING = [
  'Hello! I am the **Pausepoint demo model**: a scripted stand-in that runs entirely in this browser,',
  'so no API key is needed and nothing leaves your device. Send a message with one of these words',
  'to see how Pausepoint asks before it acts:',
  '',
  '- **approve** or **send**: I ask you to approve sending a (pretend) newsletter',
  '- **choose**: I ask you to pick one of several options',
  '- **form**: I ask you to fill in a short form',
  '- **note**: I save a note (harmless, so it runs without asking)',
  '- **delete**: I list your notes and delete the first one (asks first)',
  '- **post**: I send an HTTP POST to the demo sink, a pretend server inside this browser (asks first)',
  '',
  'To talk to a real model, add an endpoint and an API key in Settings.',
].join('\n');

const APPROVAL = {
  kind: 'approval',
  title: 'Send the April newsletter to 1,284 subscribers',
  description: [
    'The email **“What’s new in April”** goes out to the *Customers* list.',
    '',
    '- **Recipients:** 1,284 subscribers (12 who unsubscribed are skipped)',
    '- **Sender:** news@example.com',
    '- **When:** as soon as you approve',
    '- **Reversible:** no, a sent email cannot be recalled',
    '',
    '_This is the demo: nothing is actually sent._',
  ].join('\n'),
  payload: { campaign: 'april-newsletter', list: 'customers', recipients: 1284, subject: 'What’s new in April', sendAt: 'now' },
};

const CHOICE = {
  kind: 'choice',
  title: 'Pick a delivery slot for the office chairs',
  description: 'The order of **6 chairs** (€1,140 in total) can arrive on one of these days. Someone must be there to sign for it.',
  options: ['Tuesday 9:00–12:00', 'Wednesday 13:00–17:00', 'Friday 9:00–12:00'],
};

const FORM = {
  kind: 'data_entry',
  title: 'Details for the team offsite booking',
  description: 'I need these to book the venue. Nothing is booked until you submit.',
  payload: {
    type: 'object',
    properties: {
      contact: { type: 'string', title: 'Contact name' },
      attendees: { type: 'number', title: 'Number of attendees', default: 8 },
      catering: { type: 'string', title: 'Catering', enum: ['none', 'lunch', 'lunch and dinner'] },
      projector: { type: 'boolean', title: 'Projector needed', default: true },
    },
    required: ['contact', 'attendees'],
  },
};

const HTTP_POST = {
  method: 'POST',
  url: `${DEMO_SINK_URL}orders`,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ item: 'coffee beans', quantity: 2 }),
};
