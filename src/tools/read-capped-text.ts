/** What `readCappedText` got from a response body. */
export type CappedText =
  | { text: string; ending: 'complete' }
  /** The body went on past the byte cap; the rest was not read (the stream is cancelled). */
  | { text: string; ending: 'capped' }
  /** Reading failed part way (an abort, a dropped connection); `text` is what arrived before. */
  | { text: string; ending: 'failed'; error: unknown };

/**
 * Reads a body as UTF-8 text, at most `maxBytes` of it, so a response of any
 * size costs the tab no more than the cap (`response.text()` would buffer all
 * of it first). A multi-byte character cut by the cap is dropped rather than
 * shown as a replacement character.
 */
export async function readCappedText(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<CappedText> {
  if (!body) return { text: '', ending: 'complete' };
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8');
  let text = '';
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text: text + decoder.decode(), ending: 'complete' };
      const room = maxBytes - read;
      if (value.byteLength > room) {
        text += decoder.decode(value.subarray(0, room), { stream: true });
        // What was read is the answer; a body that will not cancel cleanly changes nothing in it.
        reader.cancel().catch((error: unknown) => console.warn('Pausepoint: cancelling a capped response body failed', error));
        return { text, ending: 'capped' };
      }
      read += value.byteLength;
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    return { text, ending: 'failed', error };
  } finally {
    reader.releaseLock();
  }
}
