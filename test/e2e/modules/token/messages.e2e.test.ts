import { expect } from "chai";
import { aminoWallet, type AminoWallet } from "../../../helpers/aminoWallet.js";
import { TEST_MNEMONIC } from "../../../helpers/devNode.js";
import { LegacyTxFlow } from "../../../helpers/legacyTxFlow.js";
import { useStartedDevChain } from "../../../helpers/startedDevChain.js";

/**
 * A token's life over HTTP against `chain-rest start`: issued, minted, burned and handed over
 * through the legacy generate-only routes, signed with @cosmjs/amino, broadcast with POST /txs,
 * and read back through the gateway and the legacy routes.
 */
describe("e2e: token transactions", function () {
  this.timeout(120_000);
  const chain = useStartedDevChain({ accounts: 4, mnemonic: TEST_MNEMONIC });
  const flow = new LegacyTxFlow(() => chain.node().restUrl);
  let owner: AminoWallet;
  let holder: AminoWallet;
  before(async () => {
    [owner, holder] = await Promise.all([aminoWallet(2), aminoWallet(3)]);
  });

  it("issues a token with POST /token/tokens: the gateway and the legacy routes list it", async () => {
    const sent = await flow.send(owner, "/token/tokens", {
      owner: owner.address,
      symbol: "bird",
      name: "Bird Coin",
      scale: 2,
      min_unit: "cbird",
      initial_supply: "1000",
      max_supply: "2000",
      mintable: true,
    });
    expect(sent.body.code, sent.body.raw_log).to.equal(undefined);
    const token = (await chain.ok("/extmod/token/tokens/bird")).Token;
    expect(token).to.include({
      symbol: "bird",
      name: "Bird Coin",
      min_unit: "cbird",
      initial_supply: "1000",
      max_supply: "2000",
      mintable: true,
      owner: owner.address,
    });
    const legacy = await chain.ok("/token/tokens/bird");
    expect(legacy.result.value).to.deep.include({ symbol: "bird", owner: owner.address });
    expect((await chain.ok(`/core/bank/v1beta1/balances/${owner.address}/cbird`)).balance).to.deep.equal({ denom: "cbird", amount: "100000" });
  });

  it("mints to another account and burns from it; total_burn counts the burn", async () => {
    const minted = await flow.send(owner, "/token/tokens/bird/mint", { owner: owner.address, to: holder.address, amount: "10" });
    expect(minted.body.code, minted.body.raw_log).to.equal(undefined);
    expect((await chain.ok(`/core/bank/v1beta1/balances/${holder.address}/cbird`)).balance.amount).to.equal("1000");
    const burned = await flow.send(holder, "/token/tokens/bird/burn", { owner: holder.address, amount: "4" });
    expect(burned.body.code, burned.body.raw_log).to.equal(undefined);
    expect((await chain.ok(`/core/bank/v1beta1/balances/${holder.address}/cbird`)).balance.amount).to.equal("600");
    expect((await chain.ok("/extmod/token/total_burn")).burned_coins).to.deep.include({ denom: "cbird", amount: "400" });
  });

  it("refuses a mint by someone who does not own the token, with the real code and log", async () => {
    const refused = await flow.send(holder, "/token/tokens/bird/mint", { owner: holder.address, to: "", amount: "1" });
    expect([refused.body.codespace, refused.body.code]).to.deep.equal(["token", 12]);
    expect(refused.body.raw_log).to.include(`the address ${holder.address} is not the owner of the token bird`);
  });

  it("hands the token over with POST /token/tokens/{symbol}/transfer, then edits it as the new owner with PUT", async () => {
    const moved = await flow.send(owner, "/token/tokens/bird/transfer", { src_owner: owner.address, dst_owner: holder.address });
    expect(moved.body.code, moved.body.raw_log).to.equal(undefined);
    const edited = await flow.send(holder, "/token/tokens/bird", { owner: holder.address, name: "Bird", max_supply: "0", mintable: "false" }, "PUT");
    expect(edited.body.code, edited.body.raw_log).to.equal(undefined);
    expect((await chain.ok("/extmod/token/tokens/bird")).Token).to.include({ name: "Bird", owner: holder.address, mintable: false });
  });
});
