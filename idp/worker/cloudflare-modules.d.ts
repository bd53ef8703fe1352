/** The one workerd built-in module the worker entry imports (typed here instead of @cloudflare/workers-types). */
declare module 'cloudflare:node' {
  interface FetchHandler {
    fetch(request: Request, env: unknown, ctx: unknown): Promise<Response>;
  }
  /** Bridges fetch events to the node:http server listening on `port` in this isolate (nodejs_compat, 2025-09-01+). */
  export function httpServerHandler(options: { port: number }): FetchHandler;
}
