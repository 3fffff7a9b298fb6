import { NodeRpcError, NodeUnavailableError } from "../client/chainClient.js";
import type { SentError } from "./messages.js";

/** An error as it can cross the worker channel. */
export function sendableError(err: unknown): SentError {
  if (err instanceof NodeRpcError) return { name: "NodeRpcError", code: err.code, rpcMessage: err.rpcMessage, data: err.data };
  if (err instanceof NodeUnavailableError) return { name: "NodeUnavailableError", nodeAddress: err.nodeAddress, message: err.message };
  return { name: "Error", message: err instanceof Error ? err.message : String(err) };
}

/** The error a SentError was, with the class the REST side maps to a status. */
export function receivedError(sent: SentError): Error {
  if (sent.name === "NodeRpcError") return new NodeRpcError(sent.code, sent.rpcMessage, sent.data);
  if (sent.name === "NodeUnavailableError") return Object.assign(new NodeUnavailableError(sent.nodeAddress, ""), { message: sent.message });
  return new Error(sent.message);
}
