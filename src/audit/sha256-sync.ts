import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { utf8Scratch } from './utf8-scratch.ts';

/**
 * SHA-256 of the text's UTF-8 bytes, as 64 lowercase hex digits, computed
 * synchronously. The export hashes one entry after another along the chain:
 * WebCrypto's `digest` costs a thread-pool round trip and a promise per entry —
 * most of the export's time on small entries — and keeps the page's strings
 * alive across each await, so they outlive the young generation and become old
 * garbage. @noble/hashes is audited, has no dependencies, and hashed 100,000
 * half-kilobyte entries in about 0.8 s here, faster than a SHA-256 of our own
 * did. The verifier still uses WebCrypto (sha256.ts), and a test holds the two equal.
 * The text is encoded into a reused buffer (utf8-scratch.ts), not with noble's
 * utf8ToBytes, which allocates two buffers per entry.
 */
export function sha256HexSync(text: string): string {
  return bytesToHex(sha256(utf8Scratch(text)));
}
