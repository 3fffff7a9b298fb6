import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { FaucetClient } from "@cosmjs/faucet-client";
import { encodeBech32Address } from "../../src/codec/bech32.js";
import { http } from "../helpers/http.js";
import { pollUntil } from "../helpers/poll.js";
import { useStartedDevChain } from "../helpers/startedDevChain.js";

const CREDIT = "1234567";

/** The faucet of `start` ([faucet] of app.toml), asked with @cosmjs/faucet-client and over plain HTTP. */
describe("e2e: the faucet (@cosmjs/faucet's API)", function () {
  this.timeout(60_000);
  const chain = useStartedDevChain({
    accounts: 5,
    prepare: (home) => {
      const file = path.join(home, "config", "app.toml");
      const text = fs.readFileSync(file, "utf8");
      const faucet = text.slice(text.indexOf("[faucet]"));
      const edited = faucet
        .replace("enable = false", "enable = true")
        .replace('address = "tcp://127.0.0.1:4500"', 'address = "tcp://127.0.0.1:0"')
        .replace('amounts = "10000000uhub"', `amounts = "${CREDIT}uhub"`)
        .replace('cooldown = "24h"', 'cooldown = "1h"')
        .replace("account = 0", "account = 4");
      fs.writeFileSync(file, text.slice(0, text.indexOf("[faucet]")) + edited);
    },
  });
  let faucetUrl: string;
  before(async () => {
    faucetUrl = (await chain.node().proc.waitFor(/faucet:\s+(http:\/\/\S+)/))[1]!;
  });
  const freshAddress = () => encodeBech32Address("hub", randomBytes(20));
  const balance = async (address: string) => (await chain.ok(`/core/bank/v1beta1/balances/${address}/uhub`)).balance.amount as string;
  /** The address's balance once the credit's block is in. */
  const credited = (address: string) =>
    pollUntil(
      () => balance(address),
      (amount) => amount !== "0",
    );
  const credit = (body: unknown, contentType = "application/json") =>
    http(`${faucetUrl}/credit`, { method: "POST", headers: { "content-type": contentType }, body: typeof body === "string" ? body : JSON.stringify(body) });

  it("GET /status names the chain, its tokens and the holder (the dev account of faucet.account) with its balance", async () => {
    const status = (await http(`${faucetUrl}/status`)).body;
    expect(status).to.include({ status: "ok", chainId: "devnet-1" });
    expect(status.chainTokens).to.deep.equal(["uhub"]);
    expect(status.availableTokens).to.deep.equal(["uhub"]);
    expect(status.holder.address).to.equal(chain.accounts()[4]);
    expect(status.holder.balance).to.deep.include({ denom: "uhub", amount: await balance(chain.accounts()[4]!) });
    expect(status.distributors).to.deep.equal([]);
  });

  it("credits a new address through @cosmjs/faucet-client: the coins arrive in the next block", async () => {
    const address = freshAddress();
    await new FaucetClient(faucetUrl).credit(address, "uhub");
    expect(await credited(address)).to.equal(CREDIT);
  });

  it("keeps an address waiting for its cooldown (405), and answers POST /credit as @cosmjs/faucet does", async () => {
    const address = freshAddress();
    const first = await credit({ address, denom: "uhub" });
    expect([first.status, first.text]).to.deep.equal([200, "ok"]);
    const again = await credit({ address, denom: "uhub" });
    expect(again.status).to.equal(405);
    expect(again.text).to.include("Please wait 3600 seconds");
    expect(await credited(address)).to.equal(CREDIT);
  });

  it("refuses bad requests with @cosmjs/faucet's statuses and texts", async () => {
    const address = freshAddress();
    const cases: Array<[Promise<{ status: number; text: string }>, number, string]> = [
      [credit({ address, denom: "ustake" }), 422, "Token is not available. Available tokens are: uhub"],
      [credit({ address: "cosmos1notthischain", denom: "uhub" }), 400, "Address is not in the expected format for this chain."],
      [credit({ address: "", denom: "uhub" }), 400, "Property 'address' must not be empty."],
      [credit({ address, ticker: "HUB" }), 400, "The 'ticker' field was removed"],
      [credit([address, "uhub"]), 400, "Request body must be a dictionary."],
      [credit("{not json"), 400, "Request body must be a dictionary."],
      [credit({ address, denom: "uhub" }, "application/xml"), 415, "Content-type application/json expected"],
      [credit({ address, denom: "x".repeat(5000) }), 413, "larger than 4096 bytes"],
      [http(`${faucetUrl}/credit`), 405, "This endpoint requires a POST request"],
    ];
    for (const [answer, status, text] of cases) {
      const r = await answer;
      expect(r.status, r.text).to.equal(status);
      expect(r.text).to.include(text);
    }
    // none of the refused requests started the address's cooldown
    expect((await credit({ address, denom: "uhub" })).status).to.equal(200);
  });
});
