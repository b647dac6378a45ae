import type { RestRoute } from '../route.js';

export const databasesRoutes: RestRoute[] = [
  { method: 'GET', path: '/databases', document: 'query { databases { ...DatabaseWithContextFields } }' },
];
