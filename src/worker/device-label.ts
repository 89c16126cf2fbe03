/** A readable name for this browser, for "decided by" lines: "Chrome on Linux". */
export function deviceLabel(userAgent: string): string {
  const browser =
    /Edg\//.test(userAgent) ? 'Edge'
    : /Firefox\//.test(userAgent) ? 'Firefox'
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
