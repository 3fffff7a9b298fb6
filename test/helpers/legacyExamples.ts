import type { LegacyRouteSpec } from "../../src/tables/legacyRouteSpec.js";
import { Codec } from "../../src/codec/codec.js";
import { recordId } from "../../src/node/modules/record/keys.js";

type Json = Record<string, any>;

const codec = new Codec();

/** Example values of the legacy routes' path variables, from a chain's genesis state (the sweeps of the legacy table). */
export function legacyExamples(state: Json, account: string, txHash: string): Record<string, string> {
  const staking = state.staking;
  const service = state.service;
  const record = codec.type("extmod.record.Record");
  const [contextId, context] = Object.entries(service.request_contexts as Json)[0]!;
  const serviceRequest = (service.requests as Json[])[0]!.request;
  return {
    address: account,
    delegatorAddr: staking.delegations[0].delegator_address,
    validatorAddr: staking.delegations[0].validator_address,
    "proposal-id": String(state.gov.votes[0].proposal_id),
    depositor: state.gov.deposits[0].depositor,
    voter: state.gov.votes[0].voter,
    height: "1",
    hash: txHash,
    symbol: "cat",
    "denom-id": "devkitties",
    "token-id": "kitty1",
    owner: account,
    "hash-lock": Object.keys(state.htlc.pending_htlcs)[0]!,
    "record-id": Buffer.from(recordId(record.encode(codec.parser.parse(record, state.record.records[0])).finish(), 0))
      .toString("hex")
      .toUpperCase(),
    "request-id": serviceRequest.id,
    "feed-name": state.oracle.entries[0].feed.feed_name,
    "service-name": service.definitions[0].name,
    provider: service.earned_fees[0].provider,
    "request-context-id": contextId,
    "batch-counter": String(context.batch_counter),
    "schema-name": "pricing",
    arg1: service.bindings[0].service_name,
    arg2: service.bindings[0].provider,
  };
}

/** A URL for a legacy route: path variables from the examples (or overrides), the query parameters some routes need. */
export function legacyUrl(route: LegacyRouteSpec, state: Json, examples: Record<string, string>, overrides: Record<string, string> = {}): string {
  const unbonding = state.staking.unbonding_delegations[0];
  const filled = route.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (overrides[name]) return overrides[name];
    if (route.path.includes("/unbonding_delegations/{validatorAddr}"))
      return name === "delegatorAddr" ? unbonding.delegator_address : unbonding.validator_address;
    if (name === "denom") return route.path.startsWith("/coinswap/") ? "ucat" : "uhub";
    if (name === "request-id" && route.path.startsWith("/random/")) return Object.keys(state.random.randoms)[0]!;
    const value = examples[name];
    if (value === undefined) throw new Error(`no example for {${name}} of ${route.path}: add one`);
    return encodeURIComponent(value);
  });
  const query: Record<string, string> = {
    "/random/queue": `gen-height=${Object.keys(state.random.pending_random_requests)[0]}`,
    "/txs": `message.action=send`,
    "/staking/redelegations": `delegator=${state.staking.redelegations[0].delegator_address}`,
  };
  return query[route.path] ? `${filled}?${query[route.path]}` : filled;
}
