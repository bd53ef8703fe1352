/**
 * The page the vulnerable twin serves at `/graphiql` and to browsers asking `/graphql` for HTML: what GraphiQL's
 * page announces (its title and mount point), without loading anything from outside this machine.
 */
export const GRAPHIQL_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>GraphiQL</title>
  </head>
  <body>
    <div id="graphiql">GraphiQL: the demo shop's GraphQL IDE. Queries go to /graphql.</div>
  </body>
</html>
`;
