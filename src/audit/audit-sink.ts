/**
 * Where an export writes its text: a WritableStream (a file picked with
 * `showSaveFilePicker`, a TextEncoderStream piped to a file in Node) or a
 * callback (pushing parts into a Blob's list). The export closes a stream when
 * it finishes and aborts it when it fails; a callback has nothing to close.
 */
export type AuditSink = WritableStream<string> | ((chunk: string) => void | Promise<void>);

export interface SinkWriter {
  write(chunk: string): Promise<void>;
  close(): Promise<void>;
  abort(reason: unknown): Promise<void>;
}

export function openSink(sink: AuditSink): SinkWriter {
  if (typeof sink === 'function') {
    return {
      write: async (chunk) => {
        await sink(chunk);
      },
      close: async () => undefined,
      abort: async () => undefined,
    };
  }
  const writer = sink.getWriter();
  return {
    async write(chunk) {
      // Waiting for `ready` honours the stream's backpressure: a slow disk slows the export, not memory.
      await writer.ready;
      await writer.write(chunk);
    },
    close: () => writer.close(),
    abort: (reason) => writer.abort(reason),
  };
}
