/**
 * The canonical JSON text that audit hashes are computed over.
 *
 * Rules (RFC 8785, JSON Canonicalization Scheme, for every value an audit file holds):
 * - no whitespace between tokens;
 * - object members sorted by key, comparing keys as UTF-16 code unit sequences
 *   (JavaScript's default string order);
 * - strings escaped as ECMAScript `JSON.stringify` escapes them: `\"`, `\\`,
 *   `\b \f \n \r \t`, other control characters and lone surrogates as `\u` plus
 *   four lowercase hex digits, everything else literal;
 * - numbers as ECMAScript writes them (`JSON.stringify(1e21)` is `1e+21`, `-0` is `0`).
 *
 * Values that are not JSON are mapped the way `JSON.stringify` maps them (`toJSON`
 * is called, `undefined`/functions/symbols are left out of objects and become
 * `null` in arrays, non-finite numbers become `null`). That keeps the function
 * idempotent over a file round trip: `canonicalJson(JSON.parse(canonicalJson(x)))`
 * equals `canonicalJson(x)`, which is what lets a verifier recompute a hash from
 * the parsed file. BigInts and cycles throw a TypeError, as `JSON.stringify` does.
 */
export function canonicalJson(value: unknown): string {
  // Fast path: when every object's members can be put in sorted order, the engine's
  // JSON.stringify writes exactly the text below; it is several times faster.
  const ordered = inSortedOrder(value, 0);
  const text = ordered === UNORDERABLE ? writeCanonical(value) : JSON.stringify(ordered);
  if (text === undefined) throw new TypeError('canonicalJson: the value has no JSON form (undefined, a function or a symbol).');
  return text;
}

/** The reference implementation, member by member; `canonicalJson` must always agree with it. */
export function writeCanonical(value: unknown): string | undefined {
  return write(value, new Set());
}

const UNORDERABLE: unique symbol = Symbol('unorderable');
const MAX_FAST_DEPTH = 64;

/**
 * The value with each object's members re-inserted in sorted order (objects already
 * sorted are reused, not copied), or UNORDERABLE when the engine would not keep that
 * order (integer-like keys always enumerate first), when a `toJSON` result has its own
 * `toJSON`, or when the value is too deep (possibly cyclic): the slow path handles those.
 */
function inSortedOrder(input: unknown, depth: number): unknown {
  if (typeof input !== 'object' || input === null) return input;
  if (depth > MAX_FAST_DEPTH) return UNORDERABLE;
  const value = withToJson(input);
  if (value !== input && typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') return UNORDERABLE;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const ordered = inSortedOrder(item, depth + 1);
      if (ordered === UNORDERABLE) return UNORDERABLE;
      if (ordered !== item && !copy) copy = value.slice(0, index);
      copy?.push(ordered);
    }
    return copy ?? value;
  }
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  let sorted = true;
  for (let index = 1; index < keys.length && sorted; index++) sorted = keys[index - 1]! < keys[index]!;
  // The members are collected only once a copy is known to be needed.
  let members: unknown[] | undefined = sorted ? undefined : [];
  for (let index = 0; index < keys.length; index++) {
    const member = object[keys[index]!];
    const ordered = inSortedOrder(member, depth + 1);
    if (ordered === UNORDERABLE) return UNORDERABLE;
    if (members) members.push(ordered);
    else if (ordered !== member) members = [...keys.slice(0, index).map((key) => object[key]), ordered];
  }
  if (!members) return object;
  const order = sorted ? keys.map((_, index) => index) : keys.map((_, index) => index).sort((a, b) => (keys[a]! < keys[b]! ? -1 : 1));
  const copy: Record<string, unknown> = {};
  for (const index of order) setMember(copy, keys[index]!, members[index]);
  const copied = Object.keys(copy);
  for (let index = 1; index < copied.length; index++) if (!(copied[index - 1]! < copied[index]!)) return UNORDERABLE;
  return copy;
}

function write(input: unknown, ancestors: Set<object>): string | undefined {
  const value = withToJson(input);
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('canonicalJson: a BigInt has no JSON form.');
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (value === null) return 'null';
  const object = value as object;
  if (ancestors.has(object)) throw new TypeError('canonicalJson: the value contains a cycle.');
  ancestors.add(object);
  try {
    return Array.isArray(object) ? writeArray(object, ancestors) : writeObject(object as Record<string, unknown>, ancestors);
  } finally {
    ancestors.delete(object);
  }
}

function writeArray(items: readonly unknown[], ancestors: Set<object>): string {
  const parts: string[] = [];
  for (let index = 0; index < items.length; index++) parts.push(write(items[index], ancestors) ?? 'null');
  return `[${parts.join(',')}]`;
}

function writeObject(object: Record<string, unknown>, ancestors: Set<object>): string {
  const parts: string[] = [];
  for (const key of Object.keys(object).sort()) {
    const member = write(object[key], ancestors);
    if (member !== undefined) parts.push(`${JSON.stringify(key)}:${member}`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * Adds a member to a plain object. A key named "__proto__" is defined, not
 * assigned: assigning it would set the prototype instead of adding a member.
 * (Plain objects rather than prototype-free ones: V8 keeps `Object.create(null)`
 * objects in slow dictionary mode, which costs the export noticeably.)
 */
export function setMember(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}

/**
 * `JSON.stringify` calls `toJSON` (a Date's, say) before anything else, and
 * writes a boxed number, string or boolean as the primitive; so do we.
 */
function withToJson(value: unknown): unknown {
  if (typeof value === 'object' && value !== null) {
    const toJson = (value as { toJSON?: unknown }).toJSON;
    const plain: unknown = typeof toJson === 'function' ? (toJson as () => unknown).call(value) : value;
    if (plain instanceof Number || plain instanceof String || plain instanceof Boolean) return plain.valueOf();
    return plain;
  }
  return value;
}
