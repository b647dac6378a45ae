import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The path of a source file of this project's, given its own `import.meta.url`, whether the code
 * runs compiled under dist/ or from the sources (tests): data files beside the sources are read
 * from there, never copied.
 */
export function sourcePathOf(moduleUrl: string, ...relative: string[]): string {
  const here = path.dirname(fileURLToPath(moduleUrl));
  const fromDist = here.split(`${path.sep}dist${path.sep}`);
  return path.join(fromDist.length > 1 ? path.join(fromDist[0]!, fromDist[1]!) : here, ...relative);
}
