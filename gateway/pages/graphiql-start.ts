/**
 * The IDE's start script (served as /assets/graphiql-start.js: no inline script under the pages'
 * policy). GraphiQL talks to this origin's /graphql; a key pasted in the headers tab is kept only
 * in this browser's storage.
 */
export const GRAPHIQL_START = `
(function () {
  var fetcher = GraphiQL.createFetcher({ url: window.location.origin + '/graphql' });
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(React.createElement(GraphiQL, {
    fetcher: fetcher,
    defaultEditorToolbarTabs: 'headers',
    defaultQuery: '# Docs: the book icon, top left. Run: Ctrl-Enter.\\n' +
      '# The catalogue needs no key; your own data does.\\n' +
      '# Headers tab below:\\n' +
      '#   {"Authorization": "Bearer <API key>"}\\n' +
      'query Publishers {\\n  publishers(input: { limit: 5 }) {\\n    slug\\n    name\\n    description\\n  }\\n}\\n',
    isHeadersEditorEnabled: true,
    shouldPersistHeaders: false,
  }));
})();
`;
