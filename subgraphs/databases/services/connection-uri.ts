import type { DataPlane } from '../data-plane/data-plane.js';

/** What a PostgreSQL client connects with; `password` only where it may be shown (creation, reveal). */
export function connectionUri(plane: DataPlane, role: string, password: string | null, database: string): string {
  const credentials = password === null ? encodeURIComponent(role) : `${encodeURIComponent(role)}:${encodeURIComponent(password)}`;
  return `postgresql://${credentials}@${plane.host}:${plane.port}/${encodeURIComponent(database)}`;
}
