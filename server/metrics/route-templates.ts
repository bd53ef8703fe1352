/**
 * The route templates of a listener (`/api/v1/organizations/:organizationId/registrations/:id`), to name in the
 * metrics a request refused before any route ran — by authentication or the rate limit, say — by the route it was
 * meant for. A path no template matches is `unmatched`: a label per unknown path would let any caller grow the
 * metrics without bound.
 */

export interface RouteTemplates {
  /** The template `path` is an instance of, or undefined. */
  match(path: string): string | undefined;
}

export function compileRouteTemplates(templates: readonly string[]): RouteTemplates {
  const params = (template: string) => template.split('/').filter((segment) => segment.startsWith(':')).length;
  // Literal segments first: `/registrations/validation` is not an instance of `/registrations/:id`.
  const compiled = [...new Set(templates)]
    .sort((a, b) => params(a) - params(b))
    .map((template) => ({
      template,
      pattern: new RegExp(
        `^${template
          .split('/')
          .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
          .join('/')}/?$`,
      ),
    }));
  return {
    match: (path) => compiled.find(({ pattern }) => pattern.test(path))?.template,
  };
}
