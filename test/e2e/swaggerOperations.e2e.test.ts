import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { load as loadYaml } from "js-yaml";
import { Codec } from "../../src/codec/codec.js";
import type { OpenApiDocument, SimpleParameter } from "../../src/openapi/openApiTypes.js";
import { ResponseValidator } from "../../src/openapi/responseValidator.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { http } from "../helpers/http.js";
import { runCliToEnd, startGateway, startNode, type StartedNode } from "../helpers/processes.js";
import { initDevHome } from "../helpers/devHome.js";
import { compileTables } from "../../src/tables/compileTables.js";
import { SERVICE_METHODS } from "../../src/methods/index.js";
import { neutralTypeUrl } from "../../src/codec/typeRegistry.js";
import { tempDir } from "../helpers/tempDir.js";
import { directTx, send, testSigner, type TestSigner } from "../helpers/txSigner.js";
import { pollUntil } from "../helpers/poll.js";
import type { EncodeObject } from "@cosmjs/proto-signing";
import { MsgSubmitProposal, MsgVote } from "cosmjs-types/cosmos/gov/v1beta1/tx";
import { VoteOption } from "cosmjs-types/cosmos/gov/v1beta1/gov";
import { SoftwareUpgradeProposal } from "cosmjs-types/cosmos/upgrade/v1beta1/upgrade";
import { ClientState } from "cosmjs-types/ibc/lightclients/tendermint/v1/tendermint";
import { examplesFromHome, UPGRADE_NAME } from "../helpers/gatewayExamples.js";

const codec = new Codec();

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
    initDevHome(home, { mnemonic: TEST_MNEMONIC });
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
