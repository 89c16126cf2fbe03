/** A plain JSON object, as opposed to an array or null — the first check on any untrusted body. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
