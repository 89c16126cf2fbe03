import { describe, expect, it, vi } from 'vitest';
import { DEMO_BASE_URL } from './demo-model.ts';
import { DEMO_SINK_ORIGIN, DEMO_SINK_URL, withDemoSink } from './demo-sink.ts';

describe('the demo sink', () => {
  it('lives on the demo model’s own reserved host', () => {
    expect(DEMO_SINK_ORIGIN).toBe(new URL(DEMO_BASE_URL).origin);
    expect(new URL(DEMO_SINK_URL).hostname.endsWith('.invalid')).toBe(true);
  });

  it('answers a request to it in-process, echoing what landed, and never calls the network', async () => {
    const network = vi.fn<typeof fetch>(async () => new Response('from the network'));
    const send = withDemoSink(network);

    const response = await send(`${DEMO_SINK_URL}orders?ref=7`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"item":"beans","quantity":2}' });

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      landed: 'in the demo sink, inside Pausepoint: nothing left this browser',
      method: 'POST',
      path: '/sink/orders?ref=7',
      contentType: 'application/json',
      body: { item: 'beans', quantity: 2 },
    });
    expect((await send('https://demo.pausepoint.invalid/elsewhere')).status).toBe(404);
    expect(network).not.toHaveBeenCalled();
  });

  it('passes every other request to the network unchanged', async () => {
    const network = vi.fn<typeof fetch>(async () => new Response('from the network'));
    const init = { method: 'GET' };
    const response = await withDemoSink(network)('https://example.com/sink/orders', init);
    expect(await response.text()).toBe('from the network');
    expect(network).toHaveBeenCalledWith('https://example.com/sink/orders', init);
  });
});
