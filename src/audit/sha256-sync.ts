const encoder = new TextEncoder();
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** The first 32 bits of the fractional parts of the cube roots of the first 64 primes (FIPS 180-4, 4.2.2). */
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const INITIAL: readonly [number, number, number, number, number, number, number, number] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

const w = new Int32Array(64);
const state = new Uint32Array(8);
/** Reused for every call (the export hashes 100,000 entries): UTF-8 of the text, then the padding. */
let scratch = new Uint8Array(64 * 1024);

/**
 * SHA-256 (FIPS 180-4) of the text's UTF-8 bytes, as 64 lowercase hex digits,
 * computed synchronously. The export hashes one entry after another along the
 * chain: WebCrypto's `digest` costs a thread-pool round trip and a promise per
 * entry — most of the export's time on small entries — and keeps the page's
 * strings alive across each await, so they outlive the young generation and
 * become old garbage. The verifier still uses WebCrypto (sha256.ts), and a
 * test holds the two equal.
 */
export function sha256HexSync(text: string): string {
  // UTF-8 needs at most 3 bytes per UTF-16 code unit, plus 72 bytes of padding and length.
  const needed = text.length * 3 + 72;
  if (scratch.length < needed) scratch = new Uint8Array(needed);
  const { written } = encoder.encodeInto(text, scratch);
  const blocks = Math.ceil((written + 9) / 64);
  const end = blocks * 64;
  scratch[written] = 0x80;
  scratch.fill(0, written + 1, end - 8);
  const bytes = scratch;
  const bits = written * 8;
  const high = Math.floor(bits / 0x1_0000_0000);
  const low = bits >>> 0;
  for (let i = 0; i < 4; i++) {
    bytes[end - 8 + i] = (high >>> (24 - 8 * i)) & 0xff;
    bytes[end - 4 + i] = (low >>> (24 - 8 * i)) & 0xff;
  }

  let h0 = INITIAL[0], h1 = INITIAL[1], h2 = INITIAL[2], h3 = INITIAL[3], h4 = INITIAL[4], h5 = INITIAL[5], h6 = INITIAL[6], h7 = INITIAL[7];
  for (let offset = 0; offset < end; offset += 64) {
    for (let t = 0, i = offset; t < 16; t++, i += 4) w[t] = (bytes[i]! << 24) | (bytes[i + 1]! << 16) | (bytes[i + 2]! << 8) | bytes[i + 3]!;
    for (let t = 16; t < 64; t++) {
      const a = w[t - 15]!;
      const b = w[t - 2]!;
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[t] = (w[t - 16]! + s0 + w[t - 7]! + s1) | 0;
    }
    let a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7;
    for (let t = 0; t < 64; t++) {
      const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[t]! + w[t]!) | 0;
      const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  state[0] = h0;
  state[1] = h1;
  state[2] = h2;
  state[3] = h3;
  state[4] = h4;
  state[5] = h5;
  state[6] = h6;
  state[7] = h7;
  let hex = '';
  for (let i = 0; i < 8; i++) {
    const word = state[i]!;
    hex += HEX[word >>> 24]! + HEX[(word >>> 16) & 0xff]! + HEX[(word >>> 8) & 0xff]! + HEX[word & 0xff]!;
  }
  return hex;
}
