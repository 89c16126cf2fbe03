/**
 * A readable name for this browser, for "decided by" lines and the default
 * device name in Settings › Devices: "Chrome on Linux", "Chromium on Linux".
 * Chromium and Chrome send the same user agent string (Chrome/… in both);
 * only the client hints' `brands` (navigator.userAgentData, where the browser
 * has it) tell them apart, so callers that can read them pass them.
 */
export function deviceLabel(userAgent: string, brands: readonly string[] = []): string {
  const browser =
    /Edg\//.test(userAgent) ? 'Edge'
    : /Firefox\//.test(userAgent) ? 'Firefox'
    : /Chromium\//.test(userAgent) || isPlainChromium(brands) ? 'Chromium'
    : /Chrom(e|ium)\//.test(userAgent) ? 'Chrome'
    : /Safari\//.test(userAgent) ? 'Safari'
    : 'Browser';
  const os =
    /Android/.test(userAgent) ? 'Android'
    : /iPhone|iPad/.test(userAgent) ? 'iOS'
    : /Mac OS X/.test(userAgent) ? 'macOS'
    : /Windows/.test(userAgent) ? 'Windows'
    : /Linux|X11/.test(userAgent) ? 'Linux'
    : 'unknown OS';
  return `${browser} on ${os}`;
}

/** Chromium's own brand and no browser built on it (Chrome, Edge, Opera… each adds its own); GREASE brands ("Not)A;Brand") say nothing. */
function isPlainChromium(brands: readonly string[]): boolean {
  const named = brands.filter((brand) => !/not.?a.?brand/i.test(brand));
  return named.includes('Chromium') && named.every((brand) => brand === 'Chromium' || brand === 'HeadlessChrome');
}

/** The client hints' brands of `nav`, where it has them (Chromium-based browsers on a secure origin); empty elsewhere. */
export function userAgentBrands(nav: object): string[] {
  const data = (nav as { userAgentData?: unknown }).userAgentData;
  if (typeof data !== 'object' || data === null) return [];
  const brands = (data as { brands?: unknown }).brands;
  if (!Array.isArray(brands)) return [];
  return brands.flatMap((entry: unknown) => {
    const brand = typeof entry === 'object' && entry !== null ? (entry as { brand?: unknown }).brand : undefined;
    return typeof brand === 'string' ? [brand] : [];
  });
}
