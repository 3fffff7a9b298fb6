import { expect } from "chai";
import { loadRoutes } from "../../src/tables/compileRoutes.js";
import { ROUTES_FILE } from "../../src/commands/restServer.js";
import { segmentAccepts } from "../../src/tables/routeOverlap.js";
import type { RouteSpec } from "../../src/tables/routeSpec.js";
import { Codec } from "../../src/codec/codec.js";
import { runCliToEnd } from "../helpers/processes.js";

/** Every gateway route of the specification (its Endpoints tables), verb and path as it writes them. */
const SPEC_ROUTES = `
GET /core/auth/v1beta1/accounts/{address}
GET /core/auth/v1beta1/params
GET /core/bank/v1beta1/balances/{address}
GET /core/bank/v1beta1/balances/{address}/{denom}
GET /core/bank/v1beta1/denoms_metadata
GET /core/bank/v1beta1/denoms_metadata/{denom}
GET /core/bank/v1beta1/params
GET /core/bank/v1beta1/supply
GET /core/bank/v1beta1/supply/{denom}
GET /core/distribution/v1beta1/community_pool
GET /core/distribution/v1beta1/delegators/{delegator_address}/rewards
GET /core/distribution/v1beta1/delegators/{delegator_address}/rewards/{validator_address}
GET /core/distribution/v1beta1/delegators/{delegator_address}/validators
GET /core/distribution/v1beta1/delegators/{delegator_address}/withdraw_address
GET /core/distribution/v1beta1/params
GET /core/distribution/v1beta1/validators/{validator_address}/commission
GET /core/distribution/v1beta1/validators/{validator_address}/outstanding_rewards
GET /core/distribution/v1beta1/validators/{validator_address}/slashes
GET /core/evidence/v1beta1/evidence
GET /core/evidence/v1beta1/evidence/{evidence_hash}
GET /core/gov/v1beta1/params/{params_type}
GET /core/gov/v1beta1/proposals
GET /core/gov/v1beta1/proposals/{proposal_id}
GET /core/gov/v1beta1/proposals/{proposal_id}/deposits
GET /core/gov/v1beta1/proposals/{proposal_id}/deposits/{depositor}
GET /core/gov/v1beta1/proposals/{proposal_id}/tally
GET /core/gov/v1beta1/proposals/{proposal_id}/votes
GET /core/gov/v1beta1/proposals/{proposal_id}/votes/{voter}
GET /core/params/v1beta1/params
GET /core/slashing/v1beta1/params
GET /core/slashing/v1beta1/signing_infos
GET /core/slashing/v1beta1/signing_infos/{cons_address}
GET /core/staking/v1beta1/delegations/{delegator_addr}
GET /core/staking/v1beta1/delegators/{delegator_addr}/redelegations
GET /core/staking/v1beta1/delegators/{delegator_addr}/unbonding_delegations
GET /core/staking/v1beta1/delegators/{delegator_addr}/validators
GET /core/staking/v1beta1/delegators/{delegator_addr}/validators/{validator_addr}
GET /core/staking/v1beta1/historical_info/{height}
GET /core/staking/v1beta1/params
GET /core/staking/v1beta1/pool
GET /core/staking/v1beta1/validators
GET /core/staking/v1beta1/validators/{validator_addr}
GET /core/staking/v1beta1/validators/{validator_addr}/delegations
GET /core/staking/v1beta1/validators/{validator_addr}/delegations/{delegator_addr}
GET /core/staking/v1beta1/validators/{validator_addr}/delegations/{delegator_addr}/unbonding_delegation
GET /core/staking/v1beta1/validators/{validator_addr}/unbonding_delegations
GET /core/upgrade/v1beta1/applied_plan/{name}
GET /core/upgrade/v1beta1/current_plan
GET /core/upgrade/v1beta1/upgraded_consensus_state/{last_height}
GET /ibc/core/channel/v1beta1/channels
GET /ibc/core/channel/v1beta1/channels/{channel_id}/ports/{port_id}
GET /ibc/core/channel/v1beta1/channels/{channel_id}/ports/{port_id}/client_state
GET /ibc/core/channel/v1beta1/channels/{channel_id}/ports/{port_id}/consensus_state/revision/{revision_number}/height/{revision_height}
GET /ibc/core/channel/v1beta1/channels/{channel_id}/ports/{port_id}/next_sequence
GET /ibc/core/channel/v1beta1/channels/{channel_id}/ports/{port_id}/packet_acknowledgements
GET /ibc/core/channel/v1beta1/channels/{channel_id}/ports/{port_id}/packet_acks/{sequence}
GET /ibc/core/channel/v1beta1/channels/{channel_id}/ports/{port_id}/packet_commitments
GET /ibc/core/channel/v1beta1/channels/{channel_id}/ports/{port_id}/packet_commitments/{packet_ack_sequences}/unreceived_acks
GET /ibc/core/channel/v1beta1/channels/{channel_id}/ports/{port_id}/packet_commitments/{packet_commitment_sequences}/unreceived_packets
GET /ibc/core/channel/v1beta1/channels/{channel_id}/ports/{port_id}/packet_commitments/{sequence}
GET /ibc/core/channel/v1beta1/channels/{channel_id}/ports/{port_id}/packet_receipts/{sequence}
GET /ibc/core/channel/v1beta1/connections/{connection}/channels
GET /ibc/client/v1beta1/params
GET /ibc/core/client/v1beta1/client_states
GET /ibc/core/client/v1beta1/client_states/{client_id}
GET /ibc/core/client/v1beta1/consensus_states/{client_id}
GET /ibc/core/client/v1beta1/consensus_states/{client_id}/revision/{revision_number}/height/{revision_height}
GET /ibc/core/connection/v1beta1/client_connections/{client_id}
GET /ibc/core/connection/v1beta1/connections
GET /ibc/core/connection/v1beta1/connections/{connection_id}
GET /ibc/core/connection/v1beta1/connections/{connection_id}/client_state
GET /ibc/core/connection/v1beta1/connections/{connection_id}/consensus_state/revision/{revision_number}/height/{revision_height}
GET /ibc/applications/transfer/v1beta1/denom_traces
GET /ibc/applications/transfer/v1beta1/denom_traces/{hash}
GET /ibc/applications/transfer/v1beta1/params
GET /extmod/token/params
GET /extmod/token/tokens
GET /extmod/token/tokens/{denom}
GET /extmod/token/tokens/{symbol}/fees
GET /extmod/token/total_burn
GET /extmod/htlc/htlcs/{hash_lock}
GET /extmod/coinswap/liquidities/{denom}
GET /extmod/nft/collections/{denom_id}
GET /extmod/nft/collections/{denom_id}/supply
GET /extmod/nft/denoms
GET /extmod/nft/denoms/{denom_id}
GET /extmod/nft/nfts
GET /extmod/nft/nfts/{denom_id}/{token_id}
GET /extmod/service/bindings/{service_name}
GET /extmod/service/bindings/{service_name}/{provider}
GET /extmod/service/contexts/{request_context_id}
GET /extmod/service/definitions/{service_name}
GET /extmod/service/fees/{provider}
GET /extmod/service/owners/{owner}/withdraw-address
GET /extmod/service/params
GET /extmod/service/requests/{request_context_id}/{batch_counter}
GET /extmod/service/requests/{request_id}
GET /extmod/service/requests/{service_name}/{provider}
GET /extmod/service/responses/{request_context_id}/{batch_counter}
GET /extmod/service/responses/{request_id}
GET /extmod/service/schemas/{schema_name}
GET /extmod/oracle/feeds
GET /extmod/oracle/feeds/{feed_name}
GET /extmod/oracle/feeds/{feed_name}/values
GET /extmod/random/queue
GET /extmod/random/randoms/{req_id}
GET /extmod/record/records/{record_id}
GET /hubmod/mint/params
GET /hubmod/guardian/supers
GET /core/base/consensus/v1beta1/blocks/latest
GET /core/base/consensus/v1beta1/blocks/{height}
GET /core/base/consensus/v1beta1/node_info
GET /core/base/consensus/v1beta1/syncing
GET /core/base/consensus/v1beta1/validatorsets/latest
GET /core/base/consensus/v1beta1/validatorsets/{height}
POST /core/tx/v1beta1/simulate
GET /core/tx/v1beta1/txs
POST /core/tx/v1beta1/txs
GET /core/tx/v1beta1/txs/{hash}
`
  .trim()
  .split("\n")
  .map((line) => line.split(" ") as ["GET" | "POST", string]);

/** A concrete request path for a route pattern, with sample values that satisfy its patterns. */
function samplePath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => (/height|number|sequence|counter|proposal_id|last_height/.test(name) ? "7" : `x${name}`));
}

function matching(routes: RouteSpec[], verb: string, path: string): RouteSpec[] {
  const parts = path.split("/").slice(1);
  return routes.filter(
    (r) =>
      r.verb === verb.toLowerCase() &&
      r.segments.length === parts.length &&
      r.segments.every((s, i) => ("literal" in s ? s.literal === parts[i] : segmentAccepts(s, parts[i]!))),
  );
}

describe("routes.yaml covers the specification", () => {
  const routes = loadRoutes(ROUTES_FILE, new Codec().root);

  it(`lists ${SPEC_ROUTES.length} routes from the specification`, () => {
    expect(SPEC_ROUTES.length).to.equal(119);
  });

  it("has exactly one entry, with the same verb and path, for every route of the specification", () => {
    const problems: string[] = [];
    for (const [verb, path] of SPEC_ROUTES) {
      const found = matching(routes, verb, samplePath(path));
      if (found.length !== 1) problems.push(`${verb} ${path}: ${found.length} entries match`);
      else if (found[0]!.path !== path) problems.push(`${verb} ${path}: matched by ${found[0]!.path}`);
    }
    expect(problems).to.deep.equal([]);
  });

  it("has no entry the specification does not list, unless the entry says why (and no why on a listed one)", () => {
    const listed = new Set(SPEC_ROUTES.map(([verb, path]) => `${verb.toLowerCase()} ${path}`));
    const isListed = (r: RouteSpec) => listed.has(`${r.verb} ${r.path}`);
    expect(routes.filter((r) => !isListed(r) && !r.why).map((r) => `${r.verb} ${r.path}: needs a why`)).to.deep.equal([]);
    expect(routes.filter((r) => isListed(r) && r.why).map((r) => `${r.verb} ${r.path}: listed by the specification, so no why`)).to.deep.equal([]);
  });

  it("tells the two /extmod/service/requests/{a}/{b} routes apart", () => {
    const [byContext] = matching(routes, "GET", "/extmod/service/requests/5ab3/12");
    const [byProvider] = matching(routes, "GET", "/extmod/service/requests/oracle/hub1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5lzv7xu");
    expect(byContext!.methodPath).to.equal("/extmod.service.Query/RequestsByReqCtx");
    expect(byProvider!.methodPath).to.equal("/extmod.service.Query/Requests");
  });

  it("chain-rest routes prints every route with its method, and the count", async () => {
    const result = await runCliToEnd(["routes"]);
    expect(result.code).to.equal(0);
    for (const route of routes) expect(result.output).to.include(route.methodPath.slice(1));
    expect(result.output).to.include(`${routes.length} gateway routes`);
  });
});
