import { expect } from "chai";
import path from "node:path";
import fs from "node:fs";
import { makeCosmoshubPath, makeSignDoc, makeStdTx, Secp256k1HdWallet, type StdTx } from "@cosmjs/amino";
import { DirectSecp256k1HdWallet } from "@cosmjs/proto-signing";
import { coins, type StdFee } from "@cosmjs/stargate";
import { TxRaw } from "cosmjs-types/cosmos/tx/v1beta1/tx";
import interchain from "interchain";
import { MsgSend } from "cosmjs-types/cosmos/bank/v1beta1/tx";
import { startCosmosProfileChain, type CosmosProfileChain } from "../helpers/cosmosProfileChain.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { http } from "../helpers/http.js";
import { startGateway } from "../helpers/processes.js";
import { tempDir } from "../helpers/tempDir.js";
import { connectSigningClient } from "../helpers/signingClient.js";

/** interchain: a telescope-generated client package (LCD query classes over @cosmology/lcd), as generated clients ship it. */
const { cosmos } = interchain as unknown as {
  cosmos: { ClientFactory: { createLCDClient(options: { restEndpoint: string }): Promise<any> } };
};

/** The generated client's axios error, with the URL and the server's answer in its message. */
async function lcdCall(call: Promise<any>): Promise<any> {
  try {
    return await call;
  } catch (err) {
    const e = err as { config?: { url?: string; params?: unknown }; response?: { data?: unknown }; message: string };
    throw new Error(`${e.message}: ${e.config?.url} ${JSON.stringify(e.config?.params)} → ${JSON.stringify(e.response?.data)}`);
  }
}

const FEE: StdFee = { amount: coins(5000, "uhub"), gas: "200000" };
const hdPaths = (index: number) => [makeCosmoshubPath(index)];

/**
 * Today's clients on a v0.41 chain: a telescope-generated LCD client, cosmjs
 * and a wallet's probes, against `start --names cosmos` and a `gateway`
 * in front of it (which derives every newer answer from v0.41 queries).
 */
describe("interop: clients that assume a newer SDK", function () {
  this.timeout(240_000);
  let chain: CosmosProfileChain;
  const addresses: string[] = [];
  const sentHeights: number[] = [];

  before(async () => {
    chain = await startCosmosProfileChain();
    for (let i = 0; i < 3; i++)
      addresses.push((await (await DirectSecp256k1HdWallet.fromMnemonic(TEST_MNEMONIC, { prefix: "hub", hdPaths: hdPaths(i) })).getAccounts())[0]!.address);
    // three sends from account 1, each in its own block: something for the tx search to order
    const wallet = await DirectSecp256k1HdWallet.fromMnemonic(TEST_MNEMONIC, { prefix: "hub", hdPaths: hdPaths(1) });
    const client = await connectSigningClient(chain.node.rpcUrl, wallet);
    for (const amount of [11, 12, 13]) {
      const result = await client.sendTokens(addresses[1]!, addresses[2]!, coins(amount, "uhub"), FEE, `send ${amount}`);
      expect(result.code, result.rawLog).to.equal(0);
      sentHeights.push(result.height);
    }
    client.disconnect();
  });
  after(() => chain?.stop());

  it("a telescope-generated LCD client reads by_denom, supply, spendable balances and txs through both servers", async () => {
    for (const restEndpoint of [chain.node.restUrl, chain.gateway.restUrl]) {
      const lcd = await cosmos.ClientFactory.createLCDClient({ restEndpoint });
      const address = addresses[2]!;
      const all = (await chain.rest(`/cosmos/bank/v1beta1/balances/${address}`)).balances as Array<{ denom: string; amount: string }>;
      const uhub = all.find((c) => c.denom === "uhub")!;
      expect((await lcdCall(lcd.cosmos.bank.v1beta1.balance({ address, denom: "uhub" }))).balance).to.deep.equal(uhub);
      // a denom the chain has no supply of: held by none, as v0.41 answers
      expect((await lcdCall(lcd.cosmos.bank.v1beta1.balance({ address, denom: "unothing" }))).balance).to.deep.equal({ denom: "unothing", amount: "0" });
      const supply = (await chain.rest("/cosmos/bank/v1beta1/supply")).supply as Array<{ denom: string; amount: string }>;
      const slashed = supply.find((c) => c.denom.includes("/"))!;
      expect((await lcdCall(lcd.cosmos.bank.v1beta1.supplyOf({ denom: slashed.denom }))).amount).to.deep.equal(slashed);
      expect((await lcdCall(lcd.cosmos.bank.v1beta1.spendableBalances({ address }))).balances).to.deep.equal(all);
      expect((await lcdCall(lcd.cosmos.bank.v1beta1.spendableBalanceByDenom({ address, denom: "uhub" }))).balance).to.deep.equal(uhub);
      const reversed = await lcdCall(lcd.cosmos.bank.v1beta1.allBalances({ address, pagination: { reverse: true, limit: 100n, countTotal: true } }));
      expect(reversed.balances).to.deep.equal([...all].reverse());
      // a derived route pages backwards too (through the gateway, from v0.41's forward pages); account 0 holds several denoms
      const rich = (await chain.rest(`/cosmos/bank/v1beta1/balances/${addresses[0]}`)).balances as unknown[];
      expect(rich.length).to.be.at.least(3);
      const spendableReversed = await lcdCall(lcd.cosmos.bank.v1beta1.spendableBalances({ address: addresses[0], pagination: { reverse: true, limit: 2n } }));
      expect(spendableReversed.balances).to.deep.equal([...rich].reverse().slice(0, 2));
      // the gateway asks its node forward pages and gives its own position token (a v0.41 node ignores reverse)
      const token = Buffer.from(spendableReversed.pagination.next_key as string, "base64").toString("utf8");
      expect(token.includes("chain-rest reverse page"), restEndpoint).to.equal(restEndpoint === chain.gateway.restUrl);
      const found = await lcdCall(lcd.cosmos.tx.v1beta1.getTxsEvent({ events: [`message.sender='${addresses[1]}'`], orderBy: 2, pagination: { limit: 10n } }));
      const heights = found.tx_responses.map((r: { height: string }) => Number(r.height));
      expect(heights.slice(0, 3)).to.deep.equal([...sentHeights].reverse());
      const hash = found.tx_responses[0].txhash;
      expect((await lcdCall(lcd.cosmos.tx.v1beta1.getTx({ hash }))).tx_response.txhash).to.equal(hash);
      expect((await lcdCall(lcd.cosmos.auth.v1beta1.bech32Prefix())).bech32_prefix).to.equal("hub");
      expect((await lcdCall(lcd.cosmos.auth.v1beta1.accountInfo({ address }))).info.address).to.equal(address);
      expect((await lcdCall(lcd.cosmos.mint.v1beta1.inflation())).inflation).to.match(/^0\.\d{18}$/);
    }
  });

  it("order_by on the tx search: the enum name, its number and the default", async () => {
    const search = (order: string) => chain.rest(`/cosmos/tx/v1beta1/txs?events=message.sender%3D'${addresses[1]}'${order}`);
    const heights = (body: { tx_responses: Array<{ height: string }> }) => body.tx_responses.map((r) => Number(r.height));
    const oldestFirst = heights(await search(""));
    expect(oldestFirst.slice(-3)).to.deep.equal(sentHeights);
    expect(heights(await search("&order_by=ORDER_BY_ASC"))).to.deep.equal(oldestFirst);
    expect(heights(await search("&order_by=ORDER_BY_DESC"))).to.deep.equal([...oldestFirst].reverse());
    expect(heights(await search("&order_by=2"))).to.deep.equal([...oldestFirst].reverse());
    const bad = await http(`${chain.node.restUrl}/cosmos/tx/v1beta1/txs?events=message.sender%3D'${addresses[1]}'&order_by=ORDER_BY_SIDEWAYS`);
    expect(bad.status, bad.text).to.equal(400);
  });

  it("reverse pages: the reverse walk by next_key and by offset is the forward walk reversed, on the node and through the gateway", async () => {
    const routes = [
      ["/cosmos/auth/v1beta1/accounts", "accounts"],
      [`/cosmos/bank/v1beta1/balances/${addresses[0]}`, "balances"],
      ["/cosmos/staking/v1beta1/validators", "validators"],
      ["/cosmos/bank/v1beta1/denoms_metadata", "metadatas"],
    ] as const;
    for (const base of [chain.node.restUrl, chain.gateway.restUrl]) {
      const get = async (route: string) => {
        const answer = await http(`${base}${route}`);
        expect(answer.status, `${base}${route}: ${answer.text}`).to.equal(200);
        return answer.body;
      };
      for (const [route, list] of routes) {
        const forward = (await get(`${route}?pagination.limit=1000`))[list] as unknown[];
        expect(forward.length, route).to.be.at.least(2);
        const size = forward.length < 5 ? 1 : 2; // every list walks more than one page
        const byKey: unknown[] = [];
        let key: string | null = null;
        do {
          const page: any = await get(`${route}?pagination.limit=${size}&pagination.reverse=true${key ? `&pagination.key=${encodeURIComponent(key)}` : ""}`);
          byKey.push(...page[list]);
          key = page.pagination.next_key;
        } while (key && byKey.length <= forward.length);
        expect(byKey, `${base}${route} by key`).to.deep.equal([...forward].reverse());
        const byOffset: unknown[] = [];
        for (let offset = 0; offset < forward.length; offset += size) {
          const page = await get(`${route}?pagination.limit=${size}&pagination.offset=${offset}&pagination.reverse=true&pagination.count_total=true`);
          expect(page.pagination.total, route).to.equal(String(forward.length));
          byOffset.push(...page[list]);
        }
        expect(byOffset, `${base}${route} by offset`).to.deep.equal([...forward].reverse());
      }
    }
    const overCap = await http(`${chain.node.restUrl}/cosmos/auth/v1beta1/accounts?pagination.limit=5000&pagination.reverse=true`);
    expect(overCap.status, overCap.text).to.equal(400);
    // a store key cannot be a position for the gateway's backward pages: a clear 400, not a wrong page
    const first = await http(`${chain.node.restUrl}/cosmos/auth/v1beta1/accounts?pagination.limit=1`);
    const foreign = await http(
      `${chain.gateway.restUrl}/cosmos/auth/v1beta1/accounts?pagination.reverse=true&pagination.key=${encodeURIComponent(first.body.pagination.next_key)}`,
    );
    expect(foreign.status, foreign.text).to.equal(400);
  });

  it("cosmjs: decode then encode gives the signed bytes back, and txs/block/{height} holds the broadcast tx", async () => {
    const wallet = await DirectSecp256k1HdWallet.fromMnemonic(TEST_MNEMONIC, { prefix: "hub", hdPaths: hdPaths(0) });
    const client = await connectSigningClient(chain.node.rpcUrl, wallet);
    const msg = {
      typeUrl: "/cosmos.bank.v1beta1.MsgSend",
      value: MsgSend.fromPartial({ fromAddress: addresses[0], toAddress: addresses[2], amount: coins(7, "uhub") }),
    };
    const signed = await client.sign(addresses[0]!, [msg], FEE, "round trip");
    const bytes = TxRaw.encode(signed).finish();
    const post = async (base: string, route: string, body: unknown) => {
      const answer = await http(`${base}${route}`, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
      expect(answer.status, `${route}: ${answer.text}`).to.equal(200);
      return answer.body;
    };
    for (const base of [chain.node.restUrl, chain.gateway.restUrl]) {
      const decoded = await post(base, "/cosmos/tx/v1beta1/decode", { tx_bytes: Buffer.from(bytes).toString("base64") });
      expect(decoded.tx.body.memo).to.equal("round trip");
      expect(decoded.tx.body.messages[0]).to.deep.equal({
        "@type": "/cosmos.bank.v1beta1.MsgSend",
        from_address: addresses[0],
        to_address: addresses[2],
        amount: [{ denom: "uhub", amount: "7" }],
      });
      const encoded = await post(base, "/cosmos/tx/v1beta1/encode", { tx: decoded.tx });
      expect(encoded.tx_bytes).to.equal(Buffer.from(bytes).toString("base64"));
    }
    const garbage = await http(`${chain.node.restUrl}/cosmos/tx/v1beta1/decode`, {
      method: "POST",
      body: JSON.stringify({ tx_bytes: "//8=" }),
      headers: { "content-type": "application/json" },
    });
    expect(garbage.status, garbage.text).to.equal(400);
    const result = await client.broadcastTx(bytes);
    expect(result.code, result.rawLog).to.equal(0);
    client.disconnect();
    const block = await chain.rest(`/cosmos/tx/v1beta1/txs/block/${result.height}`);
    expect(block.block.header.height).to.equal(String(result.height));
    expect(block.pagination.total).to.equal(String(block.block.data.txs.length));
    expect(block.txs.map((tx: { body: { memo: string } }) => tx.body.memo)).to.include("round trip");
    const past = await http(`${chain.node.restUrl}/cosmos/tx/v1beta1/txs/block/${result.height + 1000}`);
    expect(past.status, past.text).to.equal(400);
  });

  it("amino: a StdTx signed by cosmjs' amino wallet goes to amino binary and back to the same JSON", async () => {
    const wallet = await Secp256k1HdWallet.fromMnemonic(TEST_MNEMONIC, { prefix: "hub", hdPaths: hdPaths(0) });
    const account = (await chain.rest(`/cosmos/auth/v1beta1/accounts/${addresses[0]}`)).account;
    const msgs = [{ type: "cosmos-sdk/MsgSend", value: { from_address: addresses[0], to_address: addresses[2], amount: coins(3, "uhub") } }];
    const doc = makeSignDoc(msgs, FEE, "devnet-1", "amino round trip", account.account_number, account.sequence);
    const { signed, signature } = await wallet.signAmino(addresses[0]!, doc);
    const stdTx: StdTx = makeStdTx(signed, signature);
    const post = async (route: string, body: unknown) => {
      const answer = await http(`${chain.gateway.restUrl}${route}`, {
        method: "POST",
        body: JSON.stringify(body),
        headers: { "content-type": "application/json" },
      });
      expect(answer.status, `${route}: ${answer.text}`).to.equal(200);
      return answer.body;
    };
    const { amino_binary } = await post("/cosmos/tx/v1beta1/encode/amino", { amino_json: JSON.stringify({ type: "cosmos-sdk/StdTx", value: stdTx }) });
    const { amino_json } = await post("/cosmos/tx/v1beta1/decode/amino", { amino_binary });
    const back = JSON.parse(amino_json);
    expect(back.type).to.equal("cosmos-sdk/StdTx");
    expect({ msg: back.value.msg, fee: back.value.fee, signatures: back.value.signatures, memo: back.value.memo }).to.deep.equal(stdTx);
    // the legacy route reads the same amino binary as the same StdTx
    const legacy = await http(`${chain.node.restUrl}/txs/decode`, {
      method: "POST",
      body: JSON.stringify({ tx: amino_binary }),
      headers: { "content-type": "application/json" },
    });
    expect(legacy.status, legacy.text).to.equal(200);
    expect(legacy.body.result.signatures).to.deep.equal(stdTx.signatures);
  });

  it("a wallet's probes answer as the contract says", async () => {
    const probes: Array<[string, number, number | undefined]> = [
      ["/cosmos/bank/v1beta1/spendable_balances/test", 400, 3],
      ["/cosmos/bank/v1beta1/spendable_balances/hub1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq", 400, 3],
      [`/cosmos/bank/v1beta1/spendable_balances/${addresses[0]}`, 200, undefined],
      [`/cosmos/bank/v1beta1/balances/${addresses[0]}/by_denom?denom=uhub`, 200, undefined],
      [`/cosmos/bank/v1beta1/balances/${addresses[0]}/by_denom?denom=%21bad`, 400, 3],
      ["/cosmos/bank/v1beta1/supply/by_denom?denom=uhub", 200, undefined],
      ["/cosmos/auth/v1beta1/bech32", 200, undefined],
      [`/cosmos/auth/v1beta1/bech32/${addresses[0]}`, 200, undefined],
      ["/cosmos/auth/v1beta1/bech32/cosmos1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqnrql8a", 400, 3],
      ["/cosmos/auth/v1beta1/module_accounts", 200, undefined],
      ["/cosmos/mint/v1beta1/inflation", 200, undefined],
      ["/cosmos/mint/v1beta1/annual_provisions", 200, undefined],
      ["/ibc/core/channel/v1/channels", 200, undefined],
      ["/ibc/apps/transfer/v1/denom_traces", 200, undefined],
      ["/ibc/apps/transfer/v1/params", 501, 12],
      ["/cosmos/nothing/v1beta1/here", 501, 12],
      ["/cosmos/tx/v1beta1/txs/block/abc", 400, 3],
    ];
    for (const base of [chain.node.restUrl, chain.gateway.restUrl]) {
      for (const [route, status, code] of probes) {
        const answer = await http(`${base}${route}`);
        expect(answer.status, `${route}: ${answer.text}`).to.equal(status);
        if (code !== undefined) expect(answer.body.code, route).to.equal(code);
      }
    }
  });

  it("the module accounts and the SDK's mint are derived from v0.41 queries alike through the gateway", async () => {
    const modules = await chain.rest("/cosmos/auth/v1beta1/module_accounts");
    const names = modules.accounts.map((a: { name: string }) => a.name);
    expect(names).to.include.members(["fee_collector", "bonded_tokens_pool", "distribution"]);
    const hub = (await chain.rest("/irishub/mint/params")).params;
    expect((await chain.rest("/cosmos/mint/v1beta1/inflation")).inflation).to.equal(hub.inflation);
    const params = (await chain.rest("/cosmos/mint/v1beta1/params")).params;
    expect(params).to.include({ mint_denom: hub.mint_denom, inflation_max: hub.inflation, inflation_min: hub.inflation });
    expect(Number((await chain.rest("/cosmos/mint/v1beta1/annual_provisions")).annual_provisions)).to.be.greaterThan(0);
  });

  it("api.newer-routes = false leaves exactly v0.41's surface, OpenAPI document included", async () => {
    const home = path.join(tempDir(), "v041-gateway");
    fs.mkdirSync(path.join(home, "config"), { recursive: true });
    fs.writeFileSync(path.join(home, "config", "app.toml"), "[api]\nnewer-routes = false\n");
    const gateway = await startGateway(home, chain.node.rpcUrl, ["--names", "cosmos"]);
    try {
      for (const route of [`/cosmos/bank/v1beta1/spendable_balances/${addresses[0]}`, "/cosmos/mint/v1beta1/inflation", "/ibc/apps/transfer/v1/denom_traces"]) {
        const answer = await http(`${gateway.restUrl}${route}`);
        expect(answer.status, route).to.equal(501);
      }
      const kept = await http(`${gateway.restUrl}/cosmos/bank/v1beta1/balances/${addresses[0]}/uhub`);
      expect(kept.status, kept.text).to.equal(200);
      const paths = Object.keys((await http(`${gateway.restUrl}/swagger`)).body.paths);
      expect(paths).to.include("/cosmos/bank/v1beta1/balances/{address}/{denom}");
      expect(paths.filter((p) => /spendable|by_denom|\/mint\/v1beta1|\/v1\/|bech32|txs\/block|v1beta1\/(decode|encode)/.test(p))).to.deep.equal([]);
    } finally {
      await gateway.proc.stop();
    }
  });
});
