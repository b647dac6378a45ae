import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { sourcePathOf } from '../../shared/project-root.js';

export interface PlatformVersion {
  version: string;
  commit: string | null;
}

let known: PlatformVersion | undefined;

/** The package version, and the commit when this runs from a git checkout (read once). */
export function platformVersion(): PlatformVersion {
  if (known) return known;
  const root = sourcePathOf(import.meta.url, '..', '..');
  const { version } = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { version: string };
  let commit: string | null = null;
  try {
    commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'], timeout: 2000 }).toString().trim() || null;
  } catch {
    // Not a checkout (an image built without .git), or no git: the version alone.
  }
  return (known = { version, commit });
}
