/** The custom headers field ("Name: value", one per line) as a record, or the first line that is not a header. */
export function parseHeaders(text: string): { ok: true; headers: Record<string, string> } | { ok: false; error: string } {
  const headers: Record<string, string> = {};
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (!line) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return { ok: false, error: `Line ${i + 1} is not “Name: value”.` };
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return { ok: true, headers };
}
