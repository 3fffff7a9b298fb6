import { invalidArgument } from "../../abci/queryError.js";
import { concatBytes } from "../../store/keyEncoding.js";
import { bigEndian64 } from "./keys.js";
import { decodeHex } from "../shared/hexBytes.js";
import { fieldText } from "../../../codec/fieldText.js";

/** Lengths in hex digits, as the real query handlers check them (types.ContextIDLen, types.RequestIDLen). */
export const CONTEXT_ID_HEX_LENGTH = 80;
export const REQUEST_ID_HEX_LENGTH = 116;

/** GenerateRequestContextID: the creating tx's hash (32 bytes) and an 8-byte big-endian index. */
export function makeRequestContextId(txHash: Uint8Array, index: bigint): Uint8Array {
  return concatBytes(txHash, bigEndian64(index));
}

/** GenerateRequestID: context id | batch counter (8) | request height (8) | index of the provider in the batch (2). */
export function makeRequestId(contextId: Uint8Array, batchCounter: bigint, requestHeight: bigint, index: number): Uint8Array {
  const index16 = new Uint8Array(2);
  new DataView(index16.buffer).setUint16(0, index);
  return concatBytes(contextId, bigEndian64(batchCounter), bigEndian64(requestHeight), index16);
}

export interface RequestIdParts {
  contextId: Uint8Array;
  batchCounter: bigint;
  requestHeight: bigint;
  index: number;
}

/** SplitRequestID. */
export function splitRequestId(id: Uint8Array): RequestIdParts {
  const view = new DataView(id.buffer, id.byteOffset, id.byteLength);
  return { contextId: id.subarray(0, 40), batchCounter: view.getBigUint64(40), requestHeight: view.getBigInt64(48), index: view.getUint16(56) };
}

/** A request context id parameter, with the real handlers' checks and messages. */
export function contextIdParam(value: unknown): Uint8Array {
  const text = fieldText(value);
  if (text.length !== CONTEXT_ID_HEX_LENGTH) {
    throw invalidArgument(`length of the request context ID must be ${CONTEXT_ID_HEX_LENGTH} in bytes: invalid request context ID`);
  }
  const id = decodeHex(text);
  if (!id) throw invalidArgument("request context ID must be a hex encoded string: invalid request context ID");
  return id;
}

/** A request id parameter. The real handler reports a non-hex id with the request-context error; so do we. */
export function requestIdParam(value: unknown): Uint8Array {
  const text = fieldText(value);
  if (text.length !== REQUEST_ID_HEX_LENGTH) {
    throw invalidArgument(`invalid length, expected: ${REQUEST_ID_HEX_LENGTH}, got: ${text.length}: invalid request ID`);
  }
  const id = decodeHex(text);
  if (!id) throw invalidArgument("request ID must be a hex encoded string: invalid request context ID");
  return id;
}
