import { ProtocolError, ProtocolErrorCode, type CreateMessageRequestParams } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { PauseRequest, ToolContext } from '../engine/tool-definition.ts';
import { tab } from '../engine/testing/harness.ts';
import { makePausePoint } from '../engine/testing/make-records.ts';
import { newServerRecord } from './mcp-server-draft.ts';
import { serverRequests, type Sampler } from './server-requests.ts';
import { closeHubs, hubWithPeer, serverCard } from './testing/hub-fixture.ts';

afterEach(closeHubs);

describe('a server’s requests while its tool runs, through the hub and the engine (SDK server over the in-memory transport)', () => {
  it('turns a server’s elicitation into a data entry card and sends the answer back', async () => {
    const { h } = await hubWithPeer();
    const { card: form, toolResult } = await serverCard(h, 'ask');
    expect(form).toMatchObject({ kind: 'data_entry', title: 'Everything asks for information' });
    expect(form.payload).toMatchObject({ properties: { name: { type: 'string', title: 'Name' }, pets: { type: 'string' } }, required: ['name'] });
    await h.engine.decide(form.id, { type: 'submit', data: { name: 'Ada', pets: 'cat, dog' } }, tab('tab-A'));
    await h.engine.whenIdle();
    expect(await toolResult()).toContain('elicited {"action":"accept","content":{"name":"Ada","pets":["cat","dog"]}}');
  });

  it('turns a URL-mode elicitation into a card that shows the whole link, its host set apart; opening it accepts', async () => {
    const { h } = await hubWithPeer();
    const { card, toolResult } = await serverCard(h, 'link');
    expect(card).toMatchObject({ kind: 'approval', title: 'Everything asks you to open a link', payload: { openUrl: 'https://auth.example.com/start?session=42' } });
    expect(card.description).toContain('` https://auth.example.com/start?session=42 `');
    expect(card.description).toContain('**Host:** **` auth.example.com `**');
    expect(card.description).toContain('Finish signing in there.');
    await h.engine.decide(card.id, { type: 'approve' }, tab('tab-A'));
    await h.engine.whenIdle();
    expect(await toolResult()).toContain('link {"action":"accept"}');
  });

  it('point 17: an MCP error -32042 that carries a URL becomes a URL card like URL-mode elicitation; the model is told the call did not run', async () => {
    const { h } = await hubWithPeer({ needsLink: true });
    const { card, toolResult } = await serverCard(h, 'needs-link');
    expect(card).toMatchObject({ kind: 'approval', title: 'Everything asks you to open a link', payload: { openUrl: 'https://calendar.example.com/connect?state=7' } });
    expect(card.description).toContain('**Host:** **` calendar.example.com `**');
    expect(card.description).toContain('Connect your calendar first.');
    await h.engine.decide(card.id, { type: 'approve' }, tab('tab-A'));
    await h.engine.whenIdle();
    const result = await toolResult();
    expect(result).toContain('Not run: Everything needs the user to open a link first (shown to them on a card): the user opened calendar.example.com.');
    expect(result).not.toContain('answered with an error');
  });

  it('a declined URL elicitation is declined to the server; one whose run ends first (Stop) expires as lost', async () => {
    const { h } = await hubWithPeer();
    const declined = await serverCard(h, 'link');
    await h.engine.decide(declined.card.id, { type: 'decline' }, tab('tab-A'));
    await h.engine.whenIdle();
    expect(await declined.toolResult()).toContain('link {"action":"decline"}');

    const { h: h2, peers } = await hubWithPeer();
    const lost = await serverCard(h2, 'link');
    expect(h2.engine.stop(lost.id)).toBe(true);
    await h2.engine.whenIdle();
    expect(await h2.storage.getPausePoint(lost.card.id)).toMatchObject({ status: 'expired', expiredReason: 'lost' });
    expect(peers).toHaveLength(1);
  });

  it('a sampling request waits on a card that shows its messages as literal text; approved, it is one call to the user’s model', async () => {
    const sent: Parameters<Sampler>[0][] = [];
    const sample: Sampler = async (request) => (sent.push(request), { text: 'Hi.', model: 'the-users-model', finishReason: 'stop' });
    const { h } = await hubWithPeer({ sample });
    const { card, toolResult } = await serverCard(h, 'sample');
    expect(card).toMatchObject({ kind: 'approval', title: 'Everything asks to use your model', payload: null });
    expect(card.description).toContain('```text\nSay **hi**\n```');
    expect(card.description).toContain('```text\nBe brief.\n```');
    expect(card.description).toContain('**Max tokens** (the server asks for at most): 50');
    expect(sent).toEqual([]);
    await h.engine.decide(card.id, { type: 'approve' }, tab('tab-A'));
    await h.engine.whenIdle();
    expect(sent.map((r) => r.maxTokens)).toEqual([50]);
    expect(sent.map((r) => r.messages)).toEqual([
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say **hi**' },
      ],
    ]);
    const answer = JSON.parse(/sampled (\{.*\})/.exec((await toolResult()) ?? '')![1]!) as unknown;
    expect(answer).toEqual({ model: 'the-users-model', role: 'assistant', content: { type: 'text', text: 'Hi.' }, stopReason: 'endTurn' });
  });

  it('a declined sampling request is refused to the server with a clear message, and the model is not called', async () => {
    let calls = 0;
    const { h } = await hubWithPeer({ sample: async () => (calls++, { text: 'no', model: 'm', finishReason: 'stop' }) });
    const { card, toolResult } = await serverCard(h, 'sample');
    await h.engine.decide(card.id, { type: 'decline' }, tab('tab-A'));
    await h.engine.whenIdle();
    expect(calls).toBe(0);
    expect(await toolResult()).toContain('Sampling is refused: the user did not approve this request to use their model.');
  });

  it('a sampling request whose run ends first (the tab closes, Stop) expires its card as lost, and the server is refused', async () => {
    let calls = 0;
    const { h } = await hubWithPeer({ sample: async () => (calls++, { text: 'no', model: 'm', finishReason: 'stop' }) });
    const { id, card } = await serverCard(h, 'sample');
    expect(h.engine.stop(id)).toBe(true);
    await h.engine.whenIdle();
    expect(await h.storage.getPausePoint(card.id)).toMatchObject({ status: 'expired', expiredReason: 'lost' });
    expect(calls).toBe(0);
  });

});

/** A running call whose cards are recorded, and answered by `answer` (approve, unless told otherwise). */
function runningCall(answer: 'approve' | 'decline' = 'approve') {
  const asked: PauseRequest[] = [];
  const context: ToolContext = {
    conversationId: 'c-1',
    toolCallId: 'call-1',
    turnIndex: 0,
    signal: new AbortController().signal,
    pause: async () => {
      throw new Error('a server’s request never pauses the run');
    },
    ask: async (request) => {
      asked.push(request);
      return makePausePoint({ origin: 'elicitation', kind: request.kind, status: 'resolved', resolution: answer });
    },
  };
  return { asked, context };
}

const server = newServerRecord({ url: 'http://localhost:18699/mcp', name: 'Everything' }, { id: 'srv-1', prefix: 'everything', now: 0 });
const sampling: CreateMessageRequestParams = { messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 50 };

describe('serverRequests', () => {
  it('refuses a request while none of the server’s tools runs, and shows no card', async () => {
    const requests = serverRequests({ asker: () => null, sample: async () => ({ text: 'hi', model: 'm', finishReason: 'stop' }) });
    const refused = { name: 'ProtocolError', code: ProtocolErrorCode.InvalidRequest };
    await expect(requests.onElicit({ mode: 'form', message: 'Who?', requestedSchema: { type: 'object', properties: {} } }, new AbortController().signal)).rejects.toMatchObject({
      ...refused,
      message: expect.stringContaining('shows a server’s questions only while one of its tools is running'),
    });
    await expect(requests.onSample(sampling, new AbortController().signal)).rejects.toMatchObject(refused);
  });

  it('refuses sampling where the app gives no model to sample with, before any card', async () => {
    const { asked, context } = runningCall();
    const requests = serverRequests({ asker: () => ({ context, server }) });
    await expect(requests.onSample(sampling, new AbortController().signal)).rejects.toBeInstanceOf(ProtocolError);
    expect(asked).toEqual([]);
  });

  it('refuses a sampling request whose token cap no model could meet (under 1), before any card', async () => {
    const { asked, context } = runningCall();
    let calls = 0;
    const requests = serverRequests({ asker: () => ({ context, server }), sample: async () => (calls++, { text: 'hi', model: 'm', finishReason: 'stop' }) });
    await expect(requests.onSample({ ...sampling, maxTokens: 0 }, new AbortController().signal)).rejects.toMatchObject({ code: ProtocolErrorCode.InvalidParams });
    expect(asked).toEqual([]);
    expect(calls).toBe(0);
  });

  it('gives the sampler the server’s token cap with the messages once the card is approved', async () => {
    const { asked, context } = runningCall();
    const sent: Parameters<Sampler>[0][] = [];
    const requests = serverRequests({ asker: () => ({ context, server }), sample: async (request) => (sent.push(request), { text: 'Hi.', model: 'm', finishReason: 'length' }) });
    const answer = await requests.onSample({ ...sampling, maxTokens: 7 }, new AbortController().signal);
    expect(asked).toHaveLength(1);
    expect(sent).toMatchObject([{ maxTokens: 7, messages: [{ role: 'user', content: 'Say hi' }] }]);
    expect(answer).toMatchObject({ content: { type: 'text', text: 'Hi.' }, stopReason: 'maxTokens' });
  });

  it('point 10: a request that would pass a spending limit says so on its card, and the sampler learns which conversation it spends for', async () => {
    const { asked, context } = runningCall();
    const sent: Parameters<Sampler>[0][] = [];
    const sample: Sampler = Object.assign(async (request: Parameters<Sampler>[0]) => (sent.push(request), { text: 'Hi.', model: 'm', finishReason: 'stop' }), {
      limitNotice: async ({ conversationId }: { conversationId: string }) => `**This request would pass your token limit per conversation** (${conversationId})`,
    });
    await serverRequests({ asker: () => ({ context, server }), sample }).onSample(sampling, new AbortController().signal);
    expect(asked[0]?.description).toContain('**This request would pass your token limit per conversation** (c-1)');
    expect(asked[0]?.description).toContain('counts toward this conversation’s usage and your limits');
    expect(sent).toMatchObject([{ conversationId: 'c-1' }]);
  });

  it('point 17: the answer is held to the cap it was sent with — the smaller of the server’s and the user’s — even when the endpoint ignores it', async () => {
    const { context } = runningCall();
    const ignoring = (completion: number | undefined, cap?: number): Sampler => async () => ({
      text: 'abcdefghij'.repeat(10),
      model: 'm',
      finishReason: 'stop',
      ...(completion === undefined ? {} : { usage: { model: 'm', prompt: 5, completion, cached: 0, reasoning: 0 } }),
      ...(cap === undefined ? {} : { maxTokens: cap }),
    });
    const ask = (sample: Sampler, maxTokens: number) => serverRequests({ asker: () => ({ context, server }), sample }).onSample({ ...sampling, maxTokens }, new AbortController().signal);
    // The endpoint counted 40 tokens against the server's cap of 10: a quarter of the text, marked as cut at the cap.
    expect(await ask(ignoring(40), 10)).toMatchObject({ content: { text: 'abcdefghij'.repeat(2) + 'abcde' }, stopReason: 'maxTokens' });
    // The user's own cap (5) is lower than the server's (10): it is the one held.
    expect(await ask(ignoring(40, 5), 10)).toMatchObject({ content: { text: 'abcdefghij'.repeat(1) + 'ab' }, stopReason: 'maxTokens' });
    // No count: four characters a token.
    expect(await ask(ignoring(undefined), 10)).toMatchObject({ content: { text: 'abcdefghij'.repeat(4) }, stopReason: 'maxTokens' });
    // Within the cap: untouched.
    expect(await ask(ignoring(8), 10)).toMatchObject({ content: { text: 'abcdefghij'.repeat(10) }, stopReason: 'endTurn' });
  });
});
