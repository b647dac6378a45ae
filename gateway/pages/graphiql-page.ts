import type { Request, Response, Router } from 'express';
import { html, sendPage } from './html.js';

/** A browser asking for /graphql (an HTML page, no operation) gets the IDE; clients get GraphQL. */
const wantsPage = (req: Request) =>
  req.method === 'GET' && req.query.query === undefined && req.accepts(['application/json', 'application/graphql-response+json', 'text/html']) === 'text/html';

export function graphiqlPage(router: Router): void {
  router.get('/graphql', (req: Request, res: Response, next) => {
    if (!wantsPage(req)) return next();
    sendPage(
      res,
      200,
      'GraphQL IDE',
      html`<div id="graphiql">Loading the GraphQL IDE…</div>
<script src="/assets/react.js"></script>
<script src="/assets/react-dom.js"></script>
<script src="/assets/graphiql.js"></script>
<script src="/assets/graphiql-start.js"></script>`,
      { head: html`<link rel="stylesheet" href="/assets/graphiql.css"><style>html, body, #graphiql { height: 100%; margin: 0; }</style>`, bare: true },
    );
  });
}
