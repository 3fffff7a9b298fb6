import type { AbciQueryResponse } from "../../client/chainClient.js";
import { abciError, SdkError } from "./abciResult.js";

/** The handlers of the baseapp's own query paths, given where the node is assembled. */
export interface BaseappHandlers {
  /** `/app/simulate`: the transaction's bytes run on a copy of the state; amino JSON of the SimulationResponse. */
  simulate(txBytes: Uint8Array, height: number): Promise<AbciQueryResponse>;
  appVersion: string;
  /** `/store/...`: the path after "store". */
  store(subpath: string[], data: Uint8Array, height: number): Promise<AbciQueryResponse>;
  /** `/custom/...`: the path after "custom". */
  custom(subpath: string[], data: Uint8Array, height: number): Promise<AbciQueryResponse>;
}

/**
 * The real baseapp's Query for the paths that are not gRPC methods (v0.41 baseapp/abci.go): split on
 * "/", then "app", "store", "p2p" or "custom", each answered with the real codes, codespaces and logs.
 * `height` is the asked height with 0 made the latest, as the baseapp does first; the baseapp's own
 * refusals (QueryResult of an error) carry height 0, as the real ones do.
 */
export function answerBaseappQuery(path: string, data: Uint8Array, height: number, handlers: BaseappHandlers): Promise<AbciQueryResponse> | AbciQueryResponse {
  const parts = path.split("/");
  if (parts[0] === "") parts.shift();
  if (parts.length === 0 || (parts.length === 1 && parts[0] === "")) {
    // v0.41 does not return after "no query path provided" and indexes the empty path: its panic is recovered as this
    return { code: 111222, codespace: "undefined", log: "runtime error: index out of range [0] with length 0: panic", value: new Uint8Array(), height: 0 };
  }
  switch (parts[0]) {
    case "app":
      return appQuery(parts, data, height, handlers);
    case "store":
      return handlers.store(parts.slice(1), data, height);
    case "p2p":
      return p2pQuery(parts);
    case "custom":
      if (parts.length < 2 || parts[1] === "") return abciError(SdkError.unknownRequest, "no route for custom query specified", 0);
      return handlers.custom(parts.slice(1), data, height);
    default:
      return abciError(SdkError.unknownRequest, "unknown query path", 0);
  }
}

function appQuery(parts: string[], data: Uint8Array, height: number, handlers: BaseappHandlers): Promise<AbciQueryResponse> | AbciQueryResponse {
  if (parts.length < 2) {
    return abciError(SdkError.unknownRequest, "expected second parameter to be either 'simulate' or 'version', neither was present", 0);
  }
  if (parts[1] === "simulate") return handlers.simulate(data, height);
  if (parts[1] === "version") return { code: 0, codespace: "sdk", log: "", value: new TextEncoder().encode(handlers.appVersion), height };
  // Go prints the path slice as [app x]
  return abciError(SdkError.unknownRequest, `unknown query: [${parts.join(" ")}]`, 0);
}

/** handleQueryP2P: this node has no peer filter, so a filter query answers the empty response (code 0). */
function p2pQuery(parts: string[]): AbciQueryResponse {
  if (parts.length < 4) return abciError(SdkError.unknownRequest, "path should be p2p filter <addr|id> <parameter>", 0);
  if (parts[1] !== "filter") return abciError(SdkError.unknownRequest, "expected second parameter to be 'filter'", 0);
  return { code: 0, codespace: "", log: "", value: new Uint8Array(), height: 0 };
}
