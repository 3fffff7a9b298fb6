import { expect } from "chai";
import {
  BroadcastMode,
  coins,
  makeSignDoc,
  makeStdTx,
  GasPrice,
  LcdClient,
  makeCosmoshubPath,
  Secp256k1HdWallet,
  setupAuthExtension,
  setupBankExtension,
  setupDistributionExtension,
  setupGovExtension,
  setupMintExtension,
  setupSlashingExtension,
  setupStakingExtension,
  setupSupplyExtension,
  SigningCosmosClient,
} from "@cosmjs/launchpad";
import { startCosmosProfileChain, type CosmosProfileChain } from "../helpers/cosmosProfileChain.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";

/** Every extension launchpad's LcdClient has. */
const EXTENSIONS = [
  setupAuthExtension,
  setupBankExtension,
  setupDistributionExtension,
  setupGovExtension,
  setupMintExtension,
  setupSlashingExtension,
  setupStakingExtension,
  setupSupplyExtension,
] as const;

const failure = (call: () => Promise<unknown>) =>
  call().then(
    () => "",
    (err: Error) => err.message,
  );

/**
 * @cosmjs/launchpad 0.27 (written for the earlier major version) against the legacy routes of a
 * node started with `--names cosmos` and of a `gateway --names cosmos` in front of it: its amino
 * names (cosmos-sdk/MsgSend, tendermint/PubKeySecp256k1) are the real system's, so nothing is renamed.
 */
describe("interop: @cosmjs/launchpad LcdClient and SigningCosmosClient against the cosmos naming profile", function () {
  this.timeout(120_000);
  let chain: CosmosProfileChain;
  let wallet: Secp256k1HdWallet;
  const addresses: string[] = [];

  before(async () => {
    chain = await startCosmosProfileChain();
    wallet = await Secp256k1HdWallet.fromMnemonic(TEST_MNEMONIC, { prefix: "hub", hdPaths: [0, 1, 2, 3, 4, 5].map((i) => makeCosmoshubPath(i)) });
    addresses.push(...(await wallet.getAccounts()).map((a) => a.address));
  });
  after(() => chain?.stop());

  // launchpad's auth extension (and so SigningCosmosClient, which reads the account through it) accepts only
  // the v0.39 account type "cosmos-sdk/Account", which the legacy route answers (v0.41 renamed it
  // "cosmos-sdk/BaseAccount"; README: does better).
  it("SigningCosmosClient.sendTokens: the send is committed and moves the balance; a StdTx launchpad signs by hand broadcasts too", async () => {
    const [from, , , , , to] = addresses as [string, string, string, string, string, string];
    const start = BigInt((await chain.rest(`/cosmos/bank/v1beta1/balances/${to}/uhub`)).balance.amount);
    const client = new SigningCosmosClient(chain.node.restUrl, from, wallet, GasPrice.fromString("0.025uhub"));
    const sent = await client.sendTokens(to, coins(1234, "uhub"), "launchpad sendTokens");
    expect(sent.transactionHash).to.match(/^[0-9A-F]{64}$/);
    expect((await chain.rest(`/auth/accounts/${from}`)).result.type).to.equal("cosmos-sdk/Account");
    expect(BigInt((await chain.rest(`/cosmos/bank/v1beta1/balances/${to}/uhub`)).balance.amount)).to.equal(start + 1234n);

    const account = (await chain.rest(`/cosmos/auth/v1beta1/accounts/${from}`)).account;
    const msg = { type: "cosmos-sdk/MsgSend", value: { from_address: from, to_address: to, amount: coins(4321, "uhub") } };
    const fee = { amount: coins(5000, "uhub"), gas: "200000" };
    const signDoc = makeSignDoc([msg], fee, "devnet-1", "launchpad send", account.account_number, account.sequence);
    const { signed, signature } = await wallet.signAmino(from, signDoc);
    const before = BigInt((await chain.rest(`/cosmos/bank/v1beta1/balances/${to}/uhub`)).balance.amount);
    const lcd = new LcdClient(chain.node.restUrl, BroadcastMode.Block);
    const result = await lcd.broadcastTx(makeStdTx(signed, signature));
    expect(result.code ?? 0, result.raw_log).to.equal(0);
    expect(BigInt((await chain.rest(`/cosmos/bank/v1beta1/balances/${to}/uhub`)).balance.amount)).to.equal(before + 4321n);
    expect((await lcd.txById(result.txhash)).tx.value.msg[0]?.type).to.equal("cosmos-sdk/MsgSend");
    expect((await chain.rest(`/auth/accounts/${from}`)).result.value.public_key.type).to.equal("tendermint/PubKeySecp256k1");
  });

  for (const target of ["node", "gateway"] as const) {
    it(`LcdClient with all its extensions through the ${target}`, async () => {
      const lcd = LcdClient.withExtensions({ apiUrl: target === "node" ? chain.node.restUrl : chain.gateway.restUrl }, ...EXTENSIONS);
      const [a0, a1] = addresses as [string, string];
      expect((await lcd.auth.account(a0)).result.value.address).to.equal(a0);
      expect((await lcd.bank.balances(a1)).result).to.deep.equal((await chain.rest(`/cosmos/bank/v1beta1/balances/${a1}`)).balances);
      expect((await lcd.nodeInfo()).node_info.network).to.equal("devnet-1");
      expect((await lcd.blocksLatest()).block.header.chain_id).to.equal("devnet-1");

      const validator = (await chain.rest(`/cosmos/staking/v1beta1/delegations/${a0}`)).delegation_responses[0].delegation.validator_address;
      expect((await lcd.staking.delegatorDelegations(a0)).result.length).to.be.at.least(1);
      // every call answers 200 (launchpad throws on any other status) with the legacy route's result
      const answers: Record<string, () => Promise<{ result?: unknown } | readonly unknown[]>> = {
        "staking.validator": () => lcd.staking.validator(validator),
        "staking.validators": () => lcd.staking.validators(),
        "staking.delegation": () => lcd.staking.delegation(a0, validator),
        "staking.delegatorValidators": () => lcd.staking.delegatorValidators(a0),
        "staking.delegatorValidator": () => lcd.staking.delegatorValidator(a0, validator),
        "staking.delegatorUnbondingDelegations": () => lcd.staking.delegatorUnbondingDelegations(a0),
        "staking.validatorDelegations": () => lcd.staking.validatorDelegations(validator),
        "staking.validatorUnbondingDelegations": () => lcd.staking.validatorUnbondingDelegations(validator),
        "staking.redelegations": () => lcd.staking.redelegations(),
        "staking.delegatorTransactions": () => lcd.staking.delegatorTransactions(a0),
        "staking.historicalInfo": () => lcd.staking.historicalInfo("1"),
        "staking.pool": () => lcd.staking.pool(),
        "staking.parameters": () => lcd.staking.parameters(),
        "distribution.delegatorRewards": () => lcd.distribution.delegatorRewards(a0),
        "distribution.delegatorReward": () => lcd.distribution.delegatorReward(a0, validator),
        "distribution.withdrawAddress": () => lcd.distribution.withdrawAddress(a0),
        "distribution.validator": () => lcd.distribution.validator(validator),
        "distribution.validatorRewards": () => lcd.distribution.validatorRewards(validator),
        "distribution.validatorOutstandingRewards": () => lcd.distribution.validatorOutstandingRewards(validator),
        "distribution.parameters": () => lcd.distribution.parameters(),
        "distribution.communityPool": () => lcd.distribution.communityPool(),
        "gov.proposals": () => lcd.gov.proposals(),
        "gov.proposal": () => lcd.gov.proposal("2"),
        "gov.deposits": () => lcd.gov.deposits("2"),
        "gov.deposit": () => lcd.gov.deposit("2", a0),
        "gov.tally": () => lcd.gov.tally("2"),
        "gov.votes": () => lcd.gov.votes("2"),
        "gov.vote": () => lcd.gov.vote("2", a1),
        "gov.parameters": () => lcd.gov.parameters("voting" as never),
        "slashing.parameters": () => lcd.slashing.parameters(),
        "slashing.signingInfos": () => lcd.slashing.signingInfos(),
      };
      for (const [name, call] of Object.entries(answers)) {
        const answer = await call();
        expect(Array.isArray(answer) ? answer : (answer as { result?: unknown }).result, name).to.not.equal(undefined);
      }
      // the proposer is read from the submitting transaction, which a genesis proposal does not have (so on a real chain)
      expect(await failure(() => lcd.gov.proposer("2"))).to.match(/failed to find the proposer for proposalID 2 \(HTTP 404\)/);
      expect((await lcd.staking.parameters()).result.bond_denom).to.equal("uhub");
      expect((await lcd.distribution.withdrawAddress(a0)).result).to.equal(a0);
      expect((await lcd.gov.proposals()).result.map((p) => p.content.type)).to.include("cosmos-sdk/TextProposal");
      expect((await lcd.gov.deposit("2", a0)).result.depositor).to.equal(a0);

      // Routes of the SDK before v0.40 that a real v0.41 hub does not have either: the supply module's
      // /supply/total moved to /bank/total, and the hub's mint is its own module (/mint/params), not /minting/*.
      expect(await failure(() => lcd.supply.totalAll())).to.match(/501/);
      expect(await failure(() => lcd.mint.parameters())).to.match(/501/);
      expect((await chain.rest("/bank/total")).result.length).to.be.at.least(1);
      expect((await chain.rest("/mint/params")).result).to.have.property("inflation");
    });
  }
});
