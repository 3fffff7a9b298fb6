/** The heights a node (or every node behind a gateway) keeps, as a "height not available" refusal names them. */
export interface KeptHeights {
  earliest?: number;
  latest?: number;
}

// Bounded digit runs, anchored on fixed words: linear in the log's length.
const KEEPS = /keeps heights (\d{1,16}) to (\d{1,16})/;
const BOUNDS = /earliest height (\d{1,16}), latest height (\d{1,16})/;
const SDK_LATEST = /version does not exist \(latest height: (\d{1,16})\)/;

/** The kept range a refusal's log names: the embedded node's, a multi-node gateway's, the SDK's (its latest only). */
export function keptHeightsOf(log: string): KeptHeights | undefined {
  const both = KEEPS.exec(log) ?? BOUNDS.exec(log);
  if (both) return { earliest: Number(both[1]), latest: Number(both[2]) };
  const latest = SDK_LATEST.exec(log);
  return latest ? { latest: Number(latest[1]) } : undefined;
}

/**
 * The error detail of a "height not available" answer (a google.rpc.ErrorInfo,
 * as gRPC error details are): earliest_height and latest_height as fields, so
 * that clients need not read them from the message's text.
 */
export function heightNotAvailableDetail(kept: KeptHeights): Record<string, unknown> {
  return {
    "@type": "type.googleapis.com/google.rpc.ErrorInfo",
    reason: "HEIGHT_NOT_AVAILABLE",
    domain: "chain-rest",
    metadata: keptHeightFields(kept),
  };
}

/** earliest_height / latest_height as strings (64-bit integers in JSON), those known. */
export function keptHeightFields(kept: KeptHeights): Record<string, string> {
  return {
    ...(kept.earliest === undefined ? {} : { earliest_height: String(kept.earliest) }),
    ...(kept.latest === undefined ? {} : { latest_height: String(kept.latest) }),
  };
}
