import { ImportError } from './import-error.ts';

/** One file inside a zip, ready to be read as a stream. */
export interface ZipEntry {
  path: string;
  /** Its size once decompressed, as the zip's directory states it. */
  size: number;
  stream(): ReadableStream<Uint8Array>;
}

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
const END64 = 0x06064b50;
const END64_LOCATOR = 0x07064b50;
/** The end record (22 bytes) and the longest comment it may carry. */
const TAIL = 22 + 0xffff;
const MAX32 = 0xffffffff;
const MAX16 = 0xffff;

/** Whether `file` begins as a zip does (a local file header, `PK\3\4`). */
export async function isZip(file: Blob): Promise<boolean> {
  if (file.size < 22) return false;
  const head = new DataView(await file.slice(0, 4).arrayBuffer());
  return head.getUint32(0, true) === LOCAL;
}

/**
 * The entry of a zip that `wanted` picks (the shallowest of those it accepts),
 * or null. The file is read where it needs to be, not whole: its end record
 * and central directory (a few bytes per entry), then the chosen entry's
 * local header; the entry's bytes are then a slice of the file, inflated as
 * they are read by the browser's own `DecompressionStream('deflate-raw')`, so
 * no zip library and no eval. Stored and deflated entries are read, with
 * ZIP64 sizes and offsets; an encrypted or otherwise compressed one is refused.
 */
export async function findZipEntry(file: Blob, wanted: (path: string) => boolean): Promise<ZipEntry | null> {
  const tailStart = Math.max(0, file.size - TAIL);
  const tail = new DataView(await file.slice(tailStart).arrayBuffer());
  let end = -1;
  for (let i = tail.byteLength - 22; i >= 0; i--) {
    if (tail.getUint32(i, true) === END) {
      end = i;
      break;
    }
  }
  if (end < 0) throw broken('its end record is missing');
  let count = tail.getUint16(end + 10, true);
  let directorySize = tail.getUint32(end + 12, true);
  let directoryOffset = tail.getUint32(end + 16, true);
  if ((count === MAX16 || directorySize === MAX32 || directoryOffset === MAX32) && end >= 20 && tail.getUint32(end - 20, true) === END64_LOCATOR) {
    const at = Number(tail.getBigUint64(end - 20 + 8, true));
    const record = new DataView(await file.slice(at, at + 56).arrayBuffer());
    if (record.getUint32(0, true) !== END64) throw broken('its ZIP64 end record is missing');
    count = Number(record.getBigUint64(32, true));
    directorySize = Number(record.getBigUint64(40, true));
    directoryOffset = Number(record.getBigUint64(48, true));
  }
  if (directoryOffset + directorySize > file.size) throw broken('its directory lies past its end');

  const directory = new DataView(await file.slice(directoryOffset, directoryOffset + directorySize).arrayBuffer());
  const names = new TextDecoder();
  let best: { path: string; flags: number; method: number; compressed: number; size: number; offset: number } | null = null;
  for (let at = 0, n = 0; n < count && at + 46 <= directory.byteLength; n++) {
    if (directory.getUint32(at, true) !== CENTRAL) throw broken('its directory is damaged');
    const nameLength = directory.getUint16(at + 28, true);
    const extraLength = directory.getUint16(at + 30, true);
    const commentLength = directory.getUint16(at + 32, true);
    const path = names.decode(new Uint8Array(directory.buffer, at + 46, nameLength));
    if (wanted(path) && (!best || depth(path) < depth(best.path))) {
      const sizes = { compressed: directory.getUint32(at + 20, true), size: directory.getUint32(at + 24, true), offset: directory.getUint32(at + 42, true) };
      readZip64(new DataView(directory.buffer, at + 46 + nameLength, extraLength), sizes);
      best = { path, flags: directory.getUint16(at + 8, true), method: directory.getUint16(at + 10, true), ...sizes };
    }
    at += 46 + nameLength + extraLength + commentLength;
  }
  if (!best) return null;
  const entry = best;
  if (entry.flags & 1) throw broken(`${entry.path} is encrypted`);
  if (entry.method !== 0 && entry.method !== 8) throw broken(`${entry.path} is compressed in a way this cannot read (method ${entry.method})`);

  const local = new DataView(await file.slice(entry.offset, entry.offset + 30).arrayBuffer());
  if (local.byteLength < 30 || local.getUint32(0, true) !== LOCAL) throw broken(`the header of ${entry.path} is missing`);
  const start = entry.offset + 30 + local.getUint16(26, true) + local.getUint16(28, true);
  const bytes = () => file.slice(start, start + entry.compressed).stream() as ReadableStream<Uint8Array>;
  return {
    path: entry.path,
    size: entry.size,
    stream: () => (entry.method === 0 ? bytes() : bytes().pipeThrough(new DecompressionStream('deflate-raw') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>)),
  };
}

/** A ZIP64 extra field (id 1) holds, in this order, each of the three values whose 32-bit field is all ones. */
function readZip64(extra: DataView, sizes: { compressed: number; size: number; offset: number }): void {
  for (let at = 0; at + 4 <= extra.byteLength; ) {
    const id = extra.getUint16(at, true);
    const length = extra.getUint16(at + 2, true);
    if (id === 1) {
      let field = at + 4;
      const next = () => {
        const value = Number(extra.getBigUint64(field, true));
        field += 8;
        return value;
      };
      if (sizes.size === MAX32) sizes.size = next();
      if (sizes.compressed === MAX32) sizes.compressed = next();
      if (sizes.offset === MAX32) sizes.offset = next();
      return;
    }
    at += 4 + length;
  }
}

const depth = (path: string) => path.split('/').length;

function broken(what: string): ImportError {
  return new ImportError('not_json', `This zip file cannot be read: ${what}. Nothing was imported.`);
}
