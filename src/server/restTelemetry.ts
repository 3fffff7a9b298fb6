import type { DirectAnswers } from "../http/directAnswers.js";
import type { AnswerCache } from "../http/answerCache.js";
import type { PageCaps } from "../http/pageCaps.js";
import type { SharedExecutions } from "../http/sharedExecutions.js";
import { ENCODINGS, type EncodedBodies } from "../http/encodedBodies.js";
import type { ListeningServer } from "./httpServer.js";
import { REFUSAL_EVENT } from "../http/refusals.js";
import type { RequestFamilies } from "../http/requestMeter.js";
import { SECONDS_BUCKETS } from "../telemetry/cells.js";
import type { Telemetry } from "../telemetry/telemetry.js";

/** The refusals counted by cause: the gate's 503, the parser's 408, 431 and 400, the body limit's 413. */
const REFUSAL_CAUSES = ["503", "408", "413", "431", "400"];

/** The request families of the REST server. */
export function requestFamilies(telemetry: Telemetry): RequestFamilies {
  return {
    requests: telemetry.counter("api_requests_total", "REST requests answered, by family, route template, method and status."),
    duration: telemetry.histogram("api_request_duration_seconds", "Time to answer a REST request, by family, route template and method.", SECONDS_BUCKETS),
    refusals: telemetry.counter("api_refusals_total", "Connections and requests refused before or instead of routing, by the status answered (cause)."),
  };
}

/** Connections open and waiting, and the refusals the server reports (REFUSAL_EVENT). */
export function meterConnections(telemetry: Telemetry, families: RequestFamilies, listening: ListeningServer): void {
  telemetry.gauge("api_connections_open", "Client connections open (handed to the HTTP server).").reads(() => listening.connections().open);
  telemetry.gauge("api_connections_waiting", "Client connections waiting for a place (api.max-open-connections).").reads(() => listening.connections().waiting);
  const causes = new Map(REFUSAL_CAUSES.map((cause) => [Number(cause), families.refusals.child({ cause })]));
  listening.server.on(REFUSAL_EVENT, (status: number) => {
    const cell = causes.get(status);
    if (cell) cell.value++;
  });
}

/** The answer cache's counts, read at each scrape. */
export function meterAnswerCache(telemetry: Telemetry, cache: AnswerCache): void {
  telemetry.readCounter("api_answer_cache_hits_total", "GET requests answered from the answer cache.").reads(() => cache.counts.hits);
  telemetry
    .readCounter("api_answer_cache_written_total", "Of the answers from the answer cache, those written without the Koa layers (the head they wrote before).")
    .reads(() => cache.counts.written);
  telemetry
    .readCounter("api_answer_cache_misses_total", "GET requests the answer cache could have answered and did not (first asks included).")
    .reads(() => cache.counts.misses);
  telemetry
    .readCounter("api_answer_cache_evictions_total", "Kept answers pushed out by newer ones (api.answer-cache-mb full).")
    .reads(() => cache.counts.evictions);
  telemetry.gauge("api_answer_cache_bytes", "Bytes the kept answers take (bodies, keys and overhead).").reads(() => cache.bytesHeld);
}

/** First asks answered without the Koa layers (directAnswers.ts), and those handed back to them. */
export function meterDirectAnswers(telemetry: Telemetry, direct: DirectAnswers): void {
  telemetry
    .readCounter("api_direct_answers_total", "First asks of gateway GET routes answered without the Koa layers (the head they wrote before for the route).")
    .reads(() => direct.counts.written);
  telemetry
    .readCounter("api_direct_answers_handed_on_total", "First asks run without the Koa layers whose outcome they answered (an error, or a body to compress).")
    .reads(() => direct.counts.handedOn);
}

/** Compressions done, by coding: flat while kept answers are served again (EncodedBodies compresses each once per coding). */
export function meterCompressions(telemetry: Telemetry, bodies: EncodedBodies): void {
  const family = telemetry.readCounter("api_compressions_total", "Answer bodies compressed, by coding (an answer served again is compressed once).");
  for (const encoding of ENCODINGS) family.reads(() => bodies.compressions[encoding], { encoding });
}

/** Pages refused (or counts left out) per cap, and the queries run for requests. */
export function meterBoundedQueries(
  telemetry: Telemetry,
  caps: PageCaps,
  countRefusals: () => number,
  executions: { count: number },
  shared: SharedExecutions,
): void {
  const refusals = telemetry.readCounter(
    "api_page_cap_refusals_total",
    "Requests over a page cap, by cap (limit, offset: api.max-page-*; count_total: api.max-count-total, refused or left out).",
  );
  refusals.reads(() => caps.refusals.limit, { cap: "limit" });
  refusals.reads(() => caps.refusals.offset, { cap: "offset" });
  refusals.reads(countRefusals, { cap: "count_total" });
  telemetry
    .readCounter("api_query_executions_total", "Queries run for REST requests (proto methods called); requests that share an execution count once.")
    .reads(() => executions.count);
  telemetry
    .readCounter("api_shared_answers_total", "GET requests answered by the execution of an identical request in flight.")
    .reads(() => shared.counts.shared);
}
