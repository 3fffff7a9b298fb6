import type { RawData } from "ws";

/** The text of a websocket message: ws hands a Buffer, an ArrayBuffer or the fragments of one. */
export function websocketText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  return Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data).toString("utf8");
}
