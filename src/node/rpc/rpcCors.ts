import type http from "node:http";

export interface RpcCorsSettings {
  /** config.toml [rpc] cors_allowed_origins: none (the default) leaves CORS off, "*" allows any origin. */
  origins: readonly string[];
  methods: readonly string[];
  headers: readonly string[];
}

/**
 * CORS of the node's JSON-RPC as the consensus engine gives it (its rs/cors
 * options: origins, methods, headers; no credentials): a preflight is
 * answered here, an allowed origin's request gets its Allow-Origin header.
 * Returns true when the request was a preflight, answered.
 */
export function rpcCors(settings: RpcCorsSettings): ((req: http.IncomingMessage, res: http.ServerResponse) => boolean) | undefined {
  if (settings.origins.length === 0) return undefined;
  const anyOrigin = settings.origins.includes("*");
  const patterns = settings.origins.filter((o) => o !== "*").map((o) => o.toLowerCase());
  const methods = new Set(settings.methods.map((m) => m.toUpperCase()));
  const anyHeader = settings.headers.includes("*");
  // the engine's library always allows Origin
  const headers = new Set([...settings.headers, "Origin"].map((h) => h.toLowerCase()));
  const allowedOrigin = (origin: string) => anyOrigin || patterns.some((pattern) => originMatches(pattern, origin.toLowerCase()));

  return (req, res) => {
    const origin = req.headers.origin;
    const preflight = req.method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined;
    if (preflight) {
      res.setHeader("Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers");
      const method = String(req.headers["access-control-request-method"]).toUpperCase();
      const asked = String(req.headers["access-control-request-headers"] ?? "")
        .split(",")
        .map((h) => h.trim())
        .filter(Boolean);
      if (origin && allowedOrigin(origin) && methods.has(method) && (anyHeader || asked.every((h) => headers.has(h.toLowerCase())))) {
        res.setHeader("Access-Control-Allow-Origin", anyOrigin ? "*" : origin);
        res.setHeader("Access-Control-Allow-Methods", method);
        if (asked.length > 0) res.setHeader("Access-Control-Allow-Headers", asked.join(", "));
      }
      res.writeHead(200);
      res.end();
      return true;
    }
    res.setHeader("Vary", "Origin");
    if (origin && allowedOrigin(origin) && methods.has(String(req.method).toUpperCase()))
      res.setHeader("Access-Control-Allow-Origin", anyOrigin ? "*" : origin);
    return false;
  };
}

/** An allowed origin with at most one "*" (http://*.example.com) matches by its prefix and suffix. */
function originMatches(pattern: string, origin: string): boolean {
  const star = pattern.indexOf("*");
  if (star === -1) return pattern === origin;
  const prefix = pattern.slice(0, star);
  const suffix = pattern.slice(star + 1);
  return origin.length >= prefix.length + suffix.length && origin.startsWith(prefix) && origin.endsWith(suffix);
}
