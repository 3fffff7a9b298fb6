import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { sha256 } from "@noble/hashes/sha2.js";
import { load as loadYaml } from "js-yaml";
import { readDevAccounts } from "../../src/commands/home.js";
import { bech32Prefixes } from "../../src/codec/addresses.js";
import { Codec } from "../../src/codec/codec.js";
import { decodeBech32Address, encodeBech32Address } from "../../src/codec/bech32.js";
import type { OpenApiDocument, SimpleParameter } from "../../src/openapi/openApiTypes.js";
import { ResponseValidator } from "../../src/openapi/responseValidator.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { http } from "../helpers/http.js";
import { runCliToEnd, startGateway, startNode, type StartedNode } from "../helpers/processes.js";
import { compileTables } from "../../src/tables/compileTables.js";
import { SERVICE_METHODS } from "../../src/services/index.js";
import { neutralTypeUrl } from "../../src/codec/typeRegistry.js";
import { tempDir } from "../helpers/tempDir.js";
import { directTx, send, testSigner, type TestSigner } from "../helpers/txSigner.js";
import { pollUntil } from "../helpers/poll.js";
import type { EncodeObject } from "@cosmjs/proto-signing";
import { MsgSubmitProposal, MsgVote } from "cosmjs-types/cosmos/gov/v1beta1/tx";
import { VoteOption } from "cosmjs-types/cosmos/gov/v1beta1/gov";
import { SoftwareUpgradeProposal } from "cosmjs-types/cosmos/upgrade/v1beta1/upgrade";
import { ClientState } from "cosmjs-types/ibc/lightclients/tendermint/v1/tendermint";

type AppState = Record<string, any>;

const codec = new Codec();

/** Every value of `key` anywhere under `value`, in document order. */
function valuesOf(value: unknown, key: string): unknown[] {
  if (Array.isArray(value)) return value.flatMap((v) => valuesOf(v, key));
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([k, v]) => [...(k === key && (typeof v === "string" || typeof v === "number") ? [v] : []), ...valuesOf(v, key)]);
}

/** x/evidence keys evidence by the SHA-256 of its proto bytes; the path takes the hash in base64. */
function evidenceHash(evidence: AppState | undefined): string | undefined {
  if (!evidence) return undefined;
  const { "@type": typeUrl, ...fields } = evidence;
  const type = codec.type(String(typeUrl).slice(1));
  return Buffer.from(sha256(type.encode(codec.parser.parse(type, fields)).finish())).toString("base64");
}

/** irismod's record id: SHA-256 of the record's proto bytes and the 4-byte intra-block counter (0 for the first genesis record). */
function recordId(record: AppState | undefined): string | undefined {
  if (!record) return undefined;
  const type = codec.type("extmod.record.Record");
  const bytes = type.encode(codec.parser.parse(type, record)).finish();
  return Buffer.from(sha256(Buffer.concat([bytes, Buffer.alloc(4)]))).toString("hex");
}

/**
 * Example parameter values from the init home: the dev accounts, the validator
 * key, and what the modules put in the genesis (read loosely, since modules
 * join over time). Where the genesis has no entry, a well-formed value that
 * names nothing, so that the route answers 404.
 */
function examplesFromHome(
  home: string,
  txHash: string,
  upgradeHeight: string,
): { path: (name: string, route: string) => string; query: Record<string, string> } {
  const state = (JSON.parse(fs.readFileSync(path.join(home, "config", "genesis.json"), "utf8")) as { app_state: AppState }).app_state;
  const key = JSON.parse(fs.readFileSync(path.join(home, "config", "priv_validator_key.json"), "utf8")) as { address: string };
  const prefixes = bech32Prefixes("hub");
  const account = readDevAccounts(home)!.accounts[0]!.address;
  const first = (module: string, field: string) => valuesOf(state[module], field)[0]?.toString();
  const operator = first("staking", "operator_address") ?? encodeBech32Address(prefixes.validatorOperator, decodeBech32Address(account, "hub", "account"));
  const collection = (state.nft?.collections as AppState[] | undefined)?.find((c) => c.nfts?.length > 0);
  const poolDenom = (valuesOf(state.bank, "denom") as string[]).find((d) => d.startsWith("swap/"))?.slice("swap/".length);
  const channels = state.ibc?.channel_genesis ?? {};
  const channel = channels.channels?.[0];
  const connection = state.ibc?.connection_genesis?.connections?.[0];
  const consensusHeight = state.ibc?.client_genesis?.clients_consensus?.[0]?.consensus_states?.[0]?.height;
  const trace = state.transfer?.denom_traces?.[0];
  const unbonding = state.staking?.unbonding_delegations?.[0];
  const [contextId, context] = Object.entries<AppState>((state.service?.request_contexts ?? {}) as Record<string, AppState>)[0] ?? [];
  const request = (state.service?.requests as AppState[] | undefined)?.[0]?.request;
  const hex = (bytes: number) => "A".repeat(bytes * 2);
  const byName: Record<string, (route: string) => string> = {
    address: () => account,
    delegator_address: () => first("staking", "delegator_address") ?? account,
    delegator_addr: (route) => (route.endsWith("/unbonding_delegation") ? unbonding?.delegator_address : first("staking", "delegator_address")) ?? account,
    validator_address: () => operator,
    validator_addr: (route) => (route.endsWith("/unbonding_delegation") ? unbonding?.validator_address : operator) ?? operator,
    depositor: () => first("gov", "depositor") ?? account,
    voter: () => first("gov", "voter") ?? account,
    owner: () => account,
    provider: () => first("service", "provider") ?? account,
    cons_address: () => first("slashing", "address") ?? encodeBech32Address(prefixes.consensus, Buffer.from(key.address, "hex")),
    denom: (route) => (route.startsWith("/extmod/coinswap/") ? (poolDenom ?? "uhub") : "uhub"),
    proposal_id: () => first("gov", "proposal_id") ?? "1",
    params_type: () => "deposit",
    height: () => "1",
    last_height: () => upgradeHeight,
    name: () => UPGRADE_NAME,
    evidence_hash: () => evidenceHash(state.evidence?.evidence?.[0]) ?? Buffer.alloc(32).toString("base64"),
    // ibc-go: a denom trace's hash is SHA-256 of "<path>/<base denom>"
    hash: (route) =>
      route.includes("denom_traces") && trace
        ? Buffer.from(sha256(new TextEncoder().encode(`${trace.path}/${trace.base_denom}`)))
            .toString("hex")
            .toUpperCase()
        : txHash,
    channel_id: () => channel?.channel_id ?? "channel-0",
    port_id: () => channel?.port_id ?? "transfer",
    connection: () => connection?.id ?? "connection-0",
    connection_id: () => connection?.id ?? "connection-0",
    client_id: () => connection?.client_id ?? "07-tendermint-0",
    revision_number: () => consensusHeight?.revision_number ?? "0",
    revision_height: () => consensusHeight?.revision_height ?? "1",
    sequence: (route) =>
      (route.includes("/packet_acks/") ? channels.acknowledgements : route.includes("/packet_receipts/") ? channels.receipts : channels.commitments)?.[0]
        ?.sequence ?? "1",
    packet_ack_sequences: () => "1,2",
    packet_commitment_sequences: () => "1,2",
    symbol: () => first("token", "symbol") ?? "hub",
    hash_lock: () => Object.keys(state.htlc?.pending_htlcs ?? {})[0] ?? hex(32),
    denom_id: () => collection?.denom?.id ?? "denom1",
    token_id: () => collection?.nfts?.[0]?.id ?? "token1",
    service_name: () => first("service", "service_name") ?? "service1",
    request_context_id: () => contextId ?? hex(40),
    batch_counter: () => context?.batch_counter ?? "1",
    // irismod: request context id (40 bytes), batch counter (8), request height (8), index in the batch (2)
    request_id: () => request?.id ?? (contextId ?? hex(40)) + "0".repeat(36),
    schema_name: () => "pricing",
    feed_name: () => first("oracle", "feed_name") ?? "feed1",
    req_id: () => Object.keys(state.random?.randoms ?? {})[0] ?? hex(32),
    record_id: () => recordId(state.record?.records?.[0]) ?? hex(32),
  };
  return {
    path: (name, route) => {
      const example = byName[name];
      if (!example) throw new Error(`no example for path parameter {${name}} of ${route}: add one here`);
      return example(route);
    },
    // Query parameters that some methods need to answer at all.
    query: { subspace: "auth", key: "MaxMemoCharacters", events: `message.sender='${account}'`, owner: account },
  };
}

const UPGRADE_NAME = "v2";

/** An IBC software-upgrade proposal (a plan carrying the next chain version's client state), as a relayer's chain would submit it. */
function ibcUpgradeProposal(height: bigint): EncodeObject["value"] {
  const upgradedClientState = {
    typeUrl: "/ibc.lightclients.tendermint.v1.ClientState",
    value: ClientState.encode(
      ClientState.fromPartial({ chainId: "devnet-2", unbondingPeriod: { seconds: 1814400n }, latestHeight: { revisionNumber: 2n, revisionHeight: 1n } }),
    ).finish(),
  };
  const plan = { name: UPGRADE_NAME, height, info: "the next version", upgradedClientState };
  const content = SoftwareUpgradeProposal.encode(SoftwareUpgradeProposal.fromPartial({ title: "Upgrade", description: "To devnet-2.", plan })).finish();
  return { content: { typeUrl: "/core.upgrade.v1beta1.SoftwareUpgradeProposal", value: content } };
}

/**
 * Calls every GET operation of the served OpenAPI document on a node started
 * from `init` with examples from its genesis, and checks each answer against
 * the operation's response schema: every one must answer 200. Two states a
 * fresh genesis lacks are reached first: one transaction (the tx-by-hash
 * route), and an IBC upgrade plan passed by gov and carried up to its last
 * block (the upgraded consensus state, which only that block records).
 */
describe("e2e: every GET operation of the OpenAPI document", function () {
  this.timeout(120_000);
  const home = path.join(tempDir(), "home");
  let node: StartedNode;
  let document: OpenApiDocument;
  let txHash: string;
  let upgradeHeight: bigint;

  /** Signs with cosmjs and broadcasts in BLOCK mode; the tx_response, accepted. */
  const broadcast = async (signer: TestSigner, messages: EncodeObject[], sequence: number, accountNumber: number) => {
    const tx = await directTx(signer, { messages, sequence, accountNumber });
    const r = await http(`${node.restUrl}/core/tx/v1beta1/txs`, {
      method: "POST",
      body: JSON.stringify({ tx_bytes: Buffer.from(tx).toString("base64"), mode: "BROADCAST_MODE_BLOCK" }),
    });
    expect(r.body.tx_response?.code, r.text).to.equal(0);
    return r.body.tx_response as {
      txhash: string;
      height: string;
      logs: Array<{ events: Array<{ type: string; attributes: Array<{ key: string; value: string }> }> }>;
    };
  };

  before(async () => {
    const init = await runCliToEnd(["init", "--home", home, "--mnemonic", TEST_MNEMONIC]);
    expect(init.code, init.output).to.equal(0);
    // A short voting period and a block every 200 ms, so that a passed upgrade plan's height comes within seconds.
    const genesisFile = path.join(home, "config", "genesis.json");
    const genesis = JSON.parse(fs.readFileSync(genesisFile, "utf8"));
    genesis.app_state.gov.voting_params.voting_period = "1s";
    // The genesis service requests (and their responses) stay pending through the sweep however slow the
    // machine: they expire at a height, and blocks come every 200 ms.
    for (const entry of genesis.app_state.service.requests as Array<{ request: { expiration_height: string } }>) entry.request.expiration_height = "1000000";
    fs.writeFileSync(genesisFile, JSON.stringify(genesis, null, 2));
    // the node-against-gateway comparison asks both at one height, which must stay kept through it
    const appToml = path.join(home, "config", "app.toml");
    fs.writeFileSync(appToml, fs.readFileSync(appToml, "utf8").replace("pruning-keep-recent = 100\n", "pruning-keep-recent = 100000\n"));
    const configToml = path.join(home, "config", "config.toml");
    const config = fs.readFileSync(configToml, "utf8");
    fs.writeFileSync(
      configToml,
      config
        .replace("create_empty_blocks = false", "create_empty_blocks = true")
        .replace('create_empty_blocks_interval = "1s"', 'create_empty_blocks_interval = "200ms"'),
    );
    node = await startNode(home);
    const served = await http(`${node.restUrl}/swagger`);
    expect(served.status).to.equal(200);
    document = served.body as OpenApiDocument;
    const [a, b] = await Promise.all([testSigner(TEST_MNEMONIC, 0), testSigner(TEST_MNEMONIC, 1)]);
    const sent = await broadcast(a, [send(a.address, b.address, "1")], 0, 0);
    txHash = sent.txhash;
    // The voting period (1 s) ends within 5 timed blocks, or fewer on a loaded machine: the plan is still ahead then.
    upgradeHeight = BigInt(sent.height) + 20n;
    const proposal = MsgSubmitProposal.fromPartial({
      ...ibcUpgradeProposal(upgradeHeight),
      initialDeposit: [{ denom: "uhub", amount: "10000000" }],
      proposer: a.address,
    });
    const submitted = await broadcast(a, [{ typeUrl: "/core.gov.v1beta1.MsgSubmitProposal", value: proposal }], 1, 0);
    const id = submitted.logs[0]!.events.find((e) => e.type === "submit_proposal")!.attributes.find((a) => a.key === "proposal_id")!.value;
    const vote = MsgVote.fromPartial({ proposalId: BigInt(id), voter: a.address, option: VoteOption.VOTE_OPTION_YES });
    await broadcast(a, [{ typeUrl: "/core.gov.v1beta1.MsgVote", value: vote }], 2, 0);
    await pollUntil(
      () => http(`${node.restUrl}/core/upgrade/v1beta1/upgraded_consensus_state/${upgradeHeight}`),
      (r) => r.status === 200,
      100,
    );
  });
  after(() => node?.proc.stop());

  it("is what `chain-rest swagger` prints, in JSON and in YAML", async () => {
    const json = await runCliToEnd(["swagger"]);
    expect(json.code).to.equal(0);
    expect(JSON.parse(json.output)).to.deep.equal(document);
    const yaml = await runCliToEnd(["swagger", "--format", "yaml"]);
    expect(yaml.code).to.equal(0);
    expect(loadYaml(yaml.output)).to.deep.equal(document);
  });

  /** The gateway family's GET operations, each with a request of example values (path and query, without the server). */
  function gatewayGets(): Array<{ template: string; route: string }> {
    const examples = examplesFromHome(home, txHash, upgradeHeight.toString());
    return Object.entries(document.paths).flatMap(([template, item]) => {
      const operation = item.get;
      // the legacy family's answers are validated by its own sweep (test/e2e/legacyRoutes.e2e.test.ts), the
      // balancer's probes (no table route) by test/e2e/operations/readiness.e2e.test.ts
      if (!operation || operation.deprecated || operation.tags.includes("operations")) return [];
      const url = new URL("http://x" + template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(examples.path(name, template))));
      for (const p of operation.parameters as SimpleParameter[])
        if (p.in === "query" && examples.query[p.name]) url.searchParams.set(p.name, examples.query[p.name]!);
      return [{ template, route: url.pathname + url.search }];
    });
  }

  it("answers each GET operation with 200 and a body that fits its schema", async () => {
    const validator = new ResponseValidator(document);
    let validated = 0;
    const problems: string[] = []; // every operation is called; the mistakes are listed together at the end
    for (const { template, route } of gatewayGets()) {
      const url = new URL(node.restUrl + route);
      const r = await http(url.href);
      const where = `GET ${url.pathname}${url.search} → ${r.status}`;
      if (r.status !== 200) {
        problems.push(`${where}: expected 200; got ${r.text.slice(0, 300)}`);
        continue;
      }
      const errors = validator.check("get", template, r.status, r.body);
      if (errors.length > 0) problems.push(`${where}: the body does not fit the schema: ${errors.join("; ")}\n${r.text.slice(0, 600)}`);
      else validated++;
    }
    console.log(`      ${validated} answers validated against their schemas (200)`);
    expect(problems, problems.join("\n\n")).to.deep.equal([]);
  });

  it("answers each GET operation of the modules' queries byte for byte as a gateway in front of the node's RPC", async () => {
    // The node's own REST server asks its modules with messages in-process; the gateway sends protobuf
    // bytes over abci_query and decodes the answer. Both are asked at one height, which stays kept meanwhile.
    const gateway = await startGateway(path.join(tempDir(), "gateway-home"), node.rpcUrl);
    try {
      const height = JSON.parse((await http(`${node.rpcUrl}/status`)).text).result.sync_info.latest_block_height as string;
      const headers = { "x-cosmos-block-height": height };
      const tables = compileTables(codec);
      let compared = 0;
      for (const { template, route } of gatewayGets()) {
        const table = tables.gateway.find((r) => r.verb === "get" && r.path === template)!;
        if (SERVICE_METHODS.has(neutralTypeUrl(table.methodPath))) continue; // answered from the node's RPC, not its modules
        const [own, remote] = await Promise.all([http(node.restUrl + route, { headers }), http(gateway.restUrl + route, { headers })]);
        expect(own.status, `${route}: ${own.text}`).to.equal(200);
        expect(remote.status, route).to.equal(own.status);
        expect(remote.text, route).to.equal(own.text);
        expect(remote.headers.get("grpc-metadata-x-cosmos-block-height"), route).to.equal(height);
        compared++;
      }
      expect(compared).to.be.greaterThan(80);
      console.log(`      ${compared} answers alike`);
    } finally {
      await gateway.proc.stop();
    }
  });
});
