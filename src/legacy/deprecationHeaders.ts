import type { Context } from "koa";

/** Where the real server points deprecated routes (its REST migration guide). */
const DEPRECATION_URL = "https://docs.cosmos.network/master/migrations/rest.html";

export const DEPRECATION_HEADERS = {
  Deprecation: "true",
  Link: `<${DEPRECATION_URL}>; rel="deprecation"`,
  Warning: '199 - "this endpoint is deprecated and may not work as before, see deprecation link for more info"',
} as const;

/** The headers the real server's WithHTTPDeprecationHeaders adds to every answer (success and error) of a marked route. */
export function setDeprecationHeaders(ctx: Context): void {
  for (const [name, value] of Object.entries(DEPRECATION_HEADERS)) ctx.res.setHeader(name, value);
}
