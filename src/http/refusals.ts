import type http from "node:http";

/** The event an HTTP server emits, with the status answered, for a request refused before the app saw it. */
export const REFUSAL_EVENT = "chain-rest:refusal";

/** Tells whoever counts refusals (the metrics) that the server refused a connection or request with `status`. */
export function reportRefusal(server: http.Server, status: number): void {
  server.emit(REFUSAL_EVENT, status);
}
