import { badRequest } from '../../../shared/errors.js';

export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

const invalidPath = (detail: string) => badRequest('invalid_path', `The called path ${detail}`);

/** Percent-encoding must be UTF-8, as the data plane's router requires too (it answers 400 to anything else before the proxy runs). */
function decodedUtf8(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw invalidPath('has percent-encoding that is not UTF-8');
  }
}

/** `.` and `..`, also as servers that take `;` parameters read them (`..;x`). */
const isDotSegment = (decoded: string) => /^\.{1,2}(;.*)?$/s.test(decoded);

/**
 * The endpoint policy (allow, deny, protection, price) judges the path segment by segment, decoded;
 * the upstream URL must then name the same resource. So anything a URL parser or an upstream server
 * would rewrite into another path is refused before any money or byte moves: dot segments in any
 * spelling (`..`, `%2e%2E`, `..;`), empty segments (`//`: the policy skips them, while an upstream
 * may read `//x/...` as a host), backslashes, slashes encoded inside a segment (an upstream that
 * decodes them before routing would see other segments), raw `?` or `#`, control characters, and
 * percent-encoding that is not UTF-8. A trailing slash is kept: it names the same endpoint.
 */
export function checkedCallPath(path: string): string {
  if (!path.startsWith('/')) throw invalidPath('must start with "/"');
  const segments = path.split('/');
  for (const [index, segment] of segments.entries()) {
    if (segment === '' && index > 0 && index < segments.length - 1) throw invalidPath('contains an empty segment ("//")');
    if (/[?#\\]/.test(segment) || CONTROL_CHARACTER.test(segment)) {
      throw invalidPath('contains a character that is not allowed unencoded ("?", "#", "\\" or a control character)');
    }
    const decoded = segment.includes('%') ? decodedUtf8(segment) : segment;
    if (isDotSegment(decoded)) throw invalidPath('contains a "." or ".." segment');
    if (/[/\\]/.test(decoded) || CONTROL_CHARACTER.test(decoded)) {
      throw invalidPath('contains an encoded slash, backslash or control character');
    }
  }
  return path;
}
