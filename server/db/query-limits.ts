/** Server-side time limit of every query (`maxTimeMS`): a slow query is cut off rather than holding a request. */
export const MAX_TIME_MS = 5000;
