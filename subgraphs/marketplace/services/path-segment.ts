/** `%XX` escapes of ASCII characters only; other bytes stay escaped. */
const unescapeAscii = (segment: string) => segment.replace(/%([0-7][0-9A-Fa-f])/g, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/**
 * A path segment as a server reads it: percent-decoded, or when the escapes are not UTF-8 (`%E9`,
 * a stray `%`), with its ASCII escapes decoded, which is enough to see dots, slashes and control
 * characters however they were spelled.
 */
export function decodePathSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return unescapeAscii(segment);
  }
}
