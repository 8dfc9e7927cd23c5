/**
 * A handler scoped to the paths under a prefix, mounted as one layer of the app: a request for
 * any other path passes on at once. Mounting an express Router for all paths instead makes
 * every request enter it, and a Router whose stack ends unanswered resumes the app on a later
 * turn (express 5's `setImmediate`).
 */
import type { RequestHandler } from "express";

export function underPath(prefix: string, handler: RequestHandler): RequestHandler {
  return (req, res, next) => (req.path.startsWith(prefix) ? handler(req, res, next) : next());
}
