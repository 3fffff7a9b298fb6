import type { ServerResponse } from "node:http";

/** The response's header names as the layers wrote them (getHeaders() lowercases them). */
export function rawHeaderNames(res: ServerResponse): string[] {
  return (res as ServerResponse & { getRawHeaderNames(): string[] }).getRawHeaderNames();
}

/**
 * The head the layers wrote, as node:http's writeHead takes it again: [name, value, …] in the
 * order and case they were set, so that a head learned here goes out the same, byte for byte.
 */
export function writtenHead(res: ServerResponse): string[] {
  const flat: string[] = [];
  for (const name of rawHeaderNames(res)) {
    const value = res.getHeader(name);
    if (value !== undefined) flat.push(name, Array.isArray(value) ? value.join(", ") : String(value));
  }
  return flat;
}
