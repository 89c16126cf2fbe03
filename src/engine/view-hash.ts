import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { DecisionView, ViewLine } from './decision-view.ts';

/** The encoding's version: a change to it (or to what a view holds) makes earlier hashes another view's. */
const ENCODING = 'pausepoint-decision-view-1';

/**
 * The view's `view_hash`: SHA-256 (hex) of its canonical encoding — a JSON
 * array of the encoding's name, the card's id and each line as an array of
 * its kind and fields, in order. A decision carries the hash of the view the
 * person was shown; the compare-and-set recomputes the view of the card as it
 * would run now and refuses the decision when the two differ. Synchronous
 * (@noble/hashes), since it runs inside the IndexedDB transaction, which
 * commits as soon as its callback awaits anything else.
 */
export function viewHash(view: DecisionView): string {
  return bytesToHex(sha256(utf8ToBytes(canonicalView(view))));
}

export function canonicalView(view: DecisionView): string {
  return JSON.stringify([ENCODING, view.pausePointId, view.lines.map(fields)]);
}

function fields(line: ViewLine): string[] {
  switch (line.kind) {
    case 'argument':
      return [line.kind, line.name, line.value];
    case 'warning':
      return [line.kind, line.warning, line.text];
    default:
      return [line.kind, line.text];
  }
}
