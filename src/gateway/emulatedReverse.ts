import Long from "long";
import type { ProtoMessage } from "../codec/json/renderProto3.js";
import { fieldText } from "../codec/fieldText.js";
import { GatewayError, GrpcCode } from "../http/grpcStatus.js";
import type protobuf from "protobufjs";

/** What asks the node one page of the route's method at a height: the answer and the height it was read at. */
export type AskPage = (request: ProtoMessage, height: number) => Promise<{ response: ProtoMessage; height?: number }>;

/** next_key of an emulated reverse page: this marker, then the reverse offset the next page starts at (8 bytes). */
const MARKER = new TextEncoder().encode("\xffchain-rest reverse page\xff");
/** v0.41's page when the request names no limit. */
const DEFAULT_LIMIT = 100;

export function asksReverse(request: ProtoMessage): boolean {
  return Boolean((request.pagination as ProtoMessage | undefined)?.reverse);
}

/**
 * `pagination.reverse` (SDK v0.43) in `gateway --node`, where a v0.41 node
 * ignores the field: the gateway counts the list (one page with count_total),
 * asks the forward window that the reverse page covers, at the same height,
 * and reverses it. Its next_key is its own (the marker and the reverse offset
 * of the next page): opaque to clients, as every next_key is. A key from
 * elsewhere cannot be turned into a position and is refused.
 */
export async function emulatedReversePage(
  responseType: protobuf.Type,
  request: ProtoMessage,
  height: number,
  ask: AskPage,
): Promise<{ response: ProtoMessage; height?: number }> {
  const page = request.pagination as ProtoMessage;
  const key = page.key as Uint8Array | undefined;
  const offset = key?.length ? offsetOf(key) : Number(fieldText(page.offset, "0"));
  const limit = Number(fieldText(page.limit, "0")) || DEFAULT_LIMIT;
  const counted = await ask({ ...request, pagination: { limit: Long.UONE, count_total: true } }, height);
  const total = Number(fieldText((counted.response.pagination as ProtoMessage | undefined)?.total, "0"));
  const at = counted.height ?? height;
  const start = Math.max(0, total - offset - limit);
  const size = Math.max(0, total - offset - start);
  const window = size > 0 ? await ask({ ...request, pagination: { offset: Long.fromNumber(start, true), limit: Long.fromNumber(size, true) } }, at) : counted;
  const response: ProtoMessage = { ...window.response };
  for (const field of responseType.fieldsArray) {
    if (field.repeated && field.name !== "pagination") response[field.name] = size > 0 ? [...((window.response[field.name] as unknown[]) ?? [])].reverse() : [];
  }
  const pagination: ProtoMessage = { total: Long.fromNumber(page.count_total ? total : 0, true) };
  if (start > 0) pagination.next_key = tokenOf(offset + limit);
  response.pagination = pagination;
  return { response, height: window.height ?? at };
}

function tokenOf(offset: number): Uint8Array {
  const out = new Uint8Array(MARKER.length + 8);
  out.set(MARKER);
  new DataView(out.buffer).setBigUint64(MARKER.length, BigInt(offset));
  return out;
}

function offsetOf(key: Uint8Array): number {
  const ours = key.length === MARKER.length + 8 && MARKER.every((b, i) => key[i] === b);
  if (!ours)
    throw new GatewayError(
      GrpcCode.InvalidArgument,
      "pagination.key with pagination.reverse: through this gateway a reverse page is asked by offset, or by the next_key of the reverse page before it (the node it asks keeps no reverse order)",
    );
  return Number(new DataView(key.buffer, key.byteOffset).getBigUint64(MARKER.length));
}
