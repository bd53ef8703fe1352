/**
 * The exchanges of `ctx.observed()` that were requests for this operation: same method, and a path that fits the
 * operation's template (probes may change path parameters). Method-override and discovery probes sent on an
 * operation ask for something else (`GET` with `X-HTTP-Method-Override`, `/.well-known/…`): their answers describe
 * other operations and would be judged against the wrong promise.
 */
import type { CheckContext, ObservedExchange } from '../../scanner/api.js';

function templatePattern(path: string): RegExp {
  const source = path
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`${source}/?$`);
}

export function ownExchanges(ctx: CheckContext): ObservedExchange[] {
  const method = ctx.operation.method.toUpperCase();
  const pattern = templatePattern(ctx.operation.path);
  return ctx.observed().filter((exchange) => {
    if (exchange.request.method.toUpperCase() !== method) return false;
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(exchange.request.url).pathname);
    } catch {
      pathname = new URL(exchange.request.url).pathname;
    }
    return pattern.test(pathname) || pattern.test(new URL(exchange.request.url).pathname);
  });
}
