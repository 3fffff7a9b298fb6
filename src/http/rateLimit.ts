import type http from "node:http";
import net from "node:net";
import { ConfigError } from "../config/tomlConfig.js";
import { GrpcCode } from "./grpcStatus.js";
import type { RawAnswer } from "./rawAnswer.js";

/** Clients whose buckets are kept at once; past it the one asked least recently is forgotten (it starts again with a full bucket). */
export const RATE_LIMIT_CLIENTS = 100_000;

export interface RateLimitSettings {
  /** api.rate-limit: requests per second per client address (0 = off). */
  perSecond: number;
  /** api.rate-limit-burst: requests a client may make at once after a quiet while (0 = one second's worth). */
  burst: number;
  /** api.trusted-proxies: comma-separated addresses whose X-Forwarded-For names the client. */
  trustedProxies: string;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** The refusal of a request over its client's rate, or undefined when it may run. */
export type RateCheck = (request: http.IncomingMessage) => RawAnswer | undefined;

/**
 * api.rate-limit: a token bucket per client address (`perSecond` tokens a
 * second, up to `burst`), in a table of at most RATE_LIMIT_CLIENTS clients kept
 * in order of their last request; a request takes `weightOf` tokens (1 by
 * default). Undefined when the limit is off.
 */
export function rateLimit(
  settings: RateLimitSettings,
  now: () => number = Date.now,
  weightOf?: (request: http.IncomingMessage) => number,
): RateCheck | undefined {
  if (settings.perSecond <= 0) return undefined;
  const burst = settings.burst > 0 ? settings.burst : Math.max(1, settings.perSecond);
  const trusted = trustedAddresses(settings.trustedProxies);
  const buckets = new Map<string, Bucket>();
  return (request) => {
    const client = clientAddress(request, trusted);
    const t = now();
    const bucket = buckets.get(client) ?? { tokens: burst, at: t };
    buckets.delete(client); // to the end: the most recently asked
    bucket.tokens = Math.min(burst, bucket.tokens + ((t - bucket.at) / 1000) * settings.perSecond);
    bucket.at = t;
    buckets.set(client, bucket);
    if (buckets.size > RATE_LIMIT_CLIENTS) buckets.delete(buckets.keys().next().value!);
    // a heavy route (api.route-weights) takes more tokens; never more than a full bucket, so it can always run
    const weight = weightOf?.(request) ?? 1;
    const cost = Math.min(weight, burst);
    if (bucket.tokens >= cost) {
      bucket.tokens -= cost;
      return undefined;
    }
    const retryAfter = Math.max(1, Math.ceil((cost - bucket.tokens) / settings.perSecond));
    const weighs = weight === 1 ? "" : `, and this route weighs ${weight} (api.route-weights)`;
    return {
      status: 429,
      code: GrpcCode.ResourceExhausted,
      message: `too many requests from ${client}: api.rate-limit is ${settings.perSecond} a second (burst ${burst})${weighs}; try again in ${retryAfter} s`,
      retryAfter,
    };
  };
}

function trustedAddresses(list: string): Set<string> {
  const addresses = list
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  for (const address of addresses) {
    if (net.isIP(address) === 0) throw new ConfigError(`api.trusted-proxies: "${address}" is not an IP address`);
  }
  return new Set(addresses.map(normalized));
}

/** "::ffff:127.0.0.1" (an IPv4 client of a dual-stack socket) is 127.0.0.1. */
function normalized(address: string): string {
  return address.startsWith("::ffff:") && net.isIPv4(address.slice(7)) ? address.slice(7) : address.toLowerCase();
}

/**
 * The client a request counts against: the connection's peer, or — when the
 * peer is a trusted proxy — the last address of X-Forwarded-For that is not a
 * trusted proxy (each proxy appends the address it heard from; entries left
 * of an untrusted one could be written by the client itself). An entry that is
 * no address ends the walk at the hop before it.
 */
function clientAddress(request: http.IncomingMessage, trusted: ReadonlySet<string>): string {
  let client = normalized(request.socket.remoteAddress ?? "unknown");
  if (!trusted.has(client)) return client;
  const header = request.headers["x-forwarded-for"]; // Node joins repeated X-Forwarded-For lines with ", "
  if (header === undefined) return client;
  const hops = (Array.isArray(header) ? header.join(",") : header).split(",");
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!.trim();
    if (net.isIP(hop) === 0) return client;
    client = normalized(hop);
    if (!trusted.has(client)) return client;
  }
  return client;
}
