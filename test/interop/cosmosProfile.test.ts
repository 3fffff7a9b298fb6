import { expect } from "chai";
import { makeCosmoshubPath, Secp256k1HdWallet } from "@cosmjs/amino";
import { DirectSecp256k1HdWallet, type OfflineSigner } from "@cosmjs/proto-signing";
import {
  coins,
  QueryClient,
  setupAuthExtension,
  setupBankExtension,
  setupDistributionExtension,
  setupGovExtension,
  setupIbcExtension,
  setupMintExtension,
  setupSlashingExtension,
  setupStakingExtension,
  setupTxExtension,
  SigningStargateClient,
  StargateClient,
  type StdFee,
} from "@cosmjs/stargate";
import { connectComet } from "@cosmjs/tendermint-rpc";
import { encodeSecp256k1Pubkey } from "@cosmjs/amino";
import { MsgSend } from "cosmjs-types/cosmos/bank/v1beta1/tx";
import { TextProposal, VoteOption, ProposalStatus } from "cosmjs-types/cosmos/gov/v1beta1/gov";
import path from "node:path";
import { http } from "../helpers/http.js";
import { startGateway } from "../helpers/processes.js";
import { tempDir } from "../helpers/tempDir.js";
import { startCosmosProfileChain, type CosmosProfileChain } from "../helpers/cosmosProfileChain.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { connectSigningClient } from "../helpers/signingClient.js";

const FEE: StdFee = { amount: coins(5000, "uhub"), gas: "400000" };
const hdPaths = (index: number) => [makeCosmoshubPath(index)];

/**
 * The unmodified current cosmjs (@cosmjs/stargate 0.39) against a node
 * started with `names = "cosmos"`: no registry, type URL or amino name is
 * adapted. Every answer is compared with the REST routes of the node and of a
 * `gateway --names cosmos` in front of it.
 */
describe("interop: cosmjs against the cosmos naming profile", function () {
  this.timeout(180_000);
  let chain: CosmosProfileChain;
  let validator: string;
  const addresses: string[] = [];

  before(async () => {
    chain = await startCosmosProfileChain();
    for (let i = 0; i < 6; i++)
      addresses.push((await (await DirectSecp256k1HdWallet.fromMnemonic(TEST_MNEMONIC, { prefix: "hub", hdPaths: hdPaths(i) })).getAccounts())[0]!.address);
    validator = (await chain.rest("/cosmos/staking/v1beta1/validators")).validators[0].operator_address;
  });
  after(() => chain?.stop());

  it("StargateClient: every query method answers and agrees with the REST routes", async () => {
    const client = await StargateClient.connect(chain.node.rpcUrl);
    try {
      const [a0, a1] = addresses as [string, string];
      expect(await client.getChainId()).to.equal("devnet-1");
      const height = await client.getHeight();
      expect(height).to.be.at.least(1);
      const account = await client.getAccount(a0);
      const restAccount = (await chain.rest(`/cosmos/auth/v1beta1/accounts/${a0}`)).account;
      expect(restAccount["@type"]).to.equal("/cosmos.auth.v1beta1.BaseAccount");
      expect(account?.address).to.equal(a0);
      expect(String(account?.accountNumber)).to.equal(restAccount.account_number);
      expect(String(account?.sequence)).to.equal(restAccount.sequence);
      expect(await client.getSequence(a0)).to.deep.equal({ accountNumber: account!.accountNumber, sequence: account!.sequence });
      const balances = (await chain.rest(`/cosmos/bank/v1beta1/balances/${a1}`)).balances;
      expect(await client.getAllBalances(a1)).to.deep.equal(balances);
      expect(await client.getBalance(a1, "uhub")).to.deep.equal(balances.find((c: { denom: string }) => c.denom === "uhub"));
      const delegations = (await chain.rest(`/cosmos/staking/v1beta1/delegations/${a0}`)).delegation_responses;
      expect(delegations.length).to.be.at.least(1);
      const first = delegations[0];
      expect(await client.getDelegation(a0, first.delegation.validator_address)).to.deep.equal(first.balance);
      const staked = delegations.reduce((sum: bigint, d: { balance: { amount: string } }) => sum + BigInt(d.balance.amount), 0n);
      expect(await client.getBalanceStaked(a0)).to.deep.equal({ denom: "uhub", amount: staked.toString() });
      const block = await client.getBlock(1);
      const restBlock = await chain.rest("/cosmos/base/tendermint/v1beta1/blocks/1");
      expect(block.header.chainId).to.equal(restBlock.block.header.chain_id);
      expect(block.id).to.equal(Buffer.from(restBlock.block_id.hash, "base64").toString("hex").toUpperCase());
    } finally {
      client.disconnect();
    }
  });

  for (const kind of ["direct", "amino"] as const) {
    describe(`SigningStargateClient with ${kind === "direct" ? "DirectSecp256k1HdWallet" : "Secp256k1HdWallet (amino)"}`, () => {
      const index = kind === "direct" ? 2 : 3;
      let signer: OfflineSigner;
      let client: SigningStargateClient;
      let address: string;

      before(async () => {
        signer =
          kind === "direct"
            ? await DirectSecp256k1HdWallet.fromMnemonic(TEST_MNEMONIC, { prefix: "hub", hdPaths: hdPaths(index) })
            : await Secp256k1HdWallet.fromMnemonic(TEST_MNEMONIC, { prefix: "hub", hdPaths: hdPaths(index) });
        address = (await signer.getAccounts())[0]!.address;
        client = await connectSigningClient(chain.node.rpcUrl, signer);
      });
      after(() => client?.disconnect());

      it("sendTokens: the transaction is found by getTx and searchTx, the balance moves as REST shows", async () => {
        const to = addresses[5]!;
        const before = BigInt((await client.getBalance(to, "uhub")).amount);
        const result = await client.sendTokens(address, to, coins(1234, "uhub"), FEE, `send ${kind}`);
        expect(result.code, result.rawLog).to.equal(0);
        expect(BigInt((await client.getBalance(to, "uhub")).amount)).to.equal(before + 1234n);
        const found = await client.getTx(result.transactionHash);
        expect(found?.height).to.equal(result.height);
        expect((await client.searchTx(`tx.height=${result.height}`)).map((t) => t.hash)).to.include(result.transactionHash);
        const restTx = await chain.rest(`/cosmos/tx/v1beta1/txs/${result.transactionHash}`);
        expect(restTx.tx.body.messages[0]["@type"]).to.equal("/cosmos.bank.v1beta1.MsgSend");
        expect(restTx.tx.body.memo).to.equal(`send ${kind}`);
        expect(restTx.tx.auth_info.signer_infos[0].public_key["@type"]).to.equal("/cosmos.crypto.secp256k1.PubKey");
        const account = (await chain.rest(`/cosmos/auth/v1beta1/accounts/${address}`)).account;
        expect(account.pub_key["@type"]).to.equal("/cosmos.crypto.secp256k1.PubKey");
        const sequence = await client.getSequence(address);
        expect({ accountNumber: String(sequence.accountNumber), sequence: String(sequence.sequence) }).to.deep.equal({
          accountNumber: account.account_number,
          sequence: account.sequence,
        });
      });

      it("delegateTokens, undelegateTokens and withdrawRewards", async () => {
        const before = BigInt((await client.getDelegation(address, validator))?.amount ?? "0");
        const delegated = await client.delegateTokens(address, validator, { denom: "uhub", amount: "500000" }, FEE);
        expect(delegated.code, delegated.rawLog).to.equal(0);
        const delegation = await chain.rest(`/cosmos/staking/v1beta1/validators/${validator}/delegations/${address}`);
        expect(await client.getDelegation(address, validator)).to.deep.equal(delegation.delegation_response.balance);
        const withdrawn = await client.withdrawRewards(address, validator, FEE);
        expect(withdrawn.code, withdrawn.rawLog).to.equal(0);
        const undelegated = await client.undelegateTokens(address, validator, { denom: "uhub", amount: "200000" }, FEE);
        expect(undelegated.code, undelegated.rawLog).to.equal(0);
        const unbonding = await chain.rest(`/cosmos/staking/v1beta1/validators/${validator}/delegations/${address}/unbonding_delegation`);
        expect(unbonding.unbond.entries.map((e: { balance: string }) => e.balance)).to.include("200000");
        expect(await client.getDelegation(address, validator)).to.deep.equal({ denom: "uhub", amount: String(before + 300000n) });
      });

      it("signAndBroadcast of a gov proposal and of a vote", async () => {
        const content = {
          typeUrl: "/cosmos.gov.v1beta1.TextProposal",
          value: TextProposal.encode({ title: `Title ${kind}`, description: "A text proposal" }).finish(),
        };
        const submitted = await client.signAndBroadcast(
          address,
          [{ typeUrl: "/cosmos.gov.v1beta1.MsgSubmitProposal", value: { content, initialDeposit: coins(10000000, "uhub"), proposer: address } }],
          FEE,
        );
        expect(submitted.code, submitted.rawLog).to.equal(0);
        const proposals = (await chain.rest("/cosmos/gov/v1beta1/proposals")).proposals;
        const mine = proposals.find((p: { content: { title: string } }) => p.content.title === `Title ${kind}`);
        expect(mine.content["@type"]).to.equal("/cosmos.gov.v1beta1.TextProposal");
        expect(mine.status).to.equal("PROPOSAL_STATUS_VOTING_PERIOD");
        const voted = await client.signAndBroadcast(
          address,
          [{ typeUrl: "/cosmos.gov.v1beta1.MsgVote", value: { proposalId: BigInt(mine.proposal_id), voter: address, option: VoteOption.VOTE_OPTION_YES } }],
          FEE,
        );
        expect(voted.code, voted.rawLog).to.equal(0);
        const vote = await chain.rest(`/cosmos/gov/v1beta1/proposals/${mine.proposal_id}/votes/${address}`);
        expect(vote.vote.option).to.equal("VOTE_OPTION_YES");
      });
    });
  }

  it("QueryClient.withExtensions (auth, bank, staking, distribution, gov, slashing, ibc, tx): every call answers and agrees with REST", async () => {
    const comet = await connectComet(chain.node.rpcUrl);
    const query = QueryClient.withExtensions(
      comet,
      setupAuthExtension,
      setupBankExtension,
      setupStakingExtension,
      setupDistributionExtension,
      setupGovExtension,
      setupSlashingExtension,
      setupIbcExtension,
      setupTxExtension,
    );
    try {
      const [a0, a1] = addresses as [string, string];
      const account = await query.auth.account(a0);
      expect(account?.typeUrl).to.equal("/cosmos.auth.v1beta1.BaseAccount");

      expect(await query.bank.allBalances(a1)).to.deep.equal((await chain.rest(`/cosmos/bank/v1beta1/balances/${a1}`)).balances);
      expect(await query.bank.balance(a1, "uhub")).to.deep.equal((await chain.rest(`/cosmos/bank/v1beta1/balances/${a1}/uhub`)).balance);
      expect(await query.bank.supplyOf("uhub")).to.deep.equal((await chain.rest("/cosmos/bank/v1beta1/supply/uhub")).amount);
      expect((await query.bank.totalSupply()).supply).to.deep.equal((await chain.rest("/cosmos/bank/v1beta1/supply")).supply);
      expect(await query.bank.denomsMetadata()).to.be.an("array");

      const validators = await query.staking.validators("BOND_STATUS_BONDED");
      const restValidators = (await chain.rest("/cosmos/staking/v1beta1/validators?status=BOND_STATUS_BONDED")).validators;
      expect(validators.validators.map((v) => v.operatorAddress)).to.deep.equal(restValidators.map((v: { operator_address: string }) => v.operator_address));
      expect(validators.validators[0]!.consensusPubkey?.typeUrl).to.equal("/cosmos.crypto.ed25519.PubKey");
      expect((await query.staking.validator(validator)).validator?.operatorAddress).to.equal(validator);
      expect((await query.staking.params()).params?.bondDenom).to.equal((await chain.rest("/cosmos/staking/v1beta1/params")).params.bond_denom);
      expect((await query.staking.pool()).pool?.bondedTokens).to.equal((await chain.rest("/cosmos/staking/v1beta1/pool")).pool.bonded_tokens);
      const delegations = await query.staking.delegatorDelegations(a0);
      expect(delegations.delegationResponses.length).to.equal((await chain.rest(`/cosmos/staking/v1beta1/delegations/${a0}`)).delegation_responses.length);
      expect((await query.staking.validatorDelegations(validator)).delegationResponses.length).to.be.at.least(1);
      expect((await query.staking.delegatorValidators(a0)).validators.length).to.be.at.least(1);
      expect(await query.staking.delegatorUnbondingDelegations(a0)).to.have.property("unbondingResponses");
      expect(await query.staking.validatorUnbondingDelegations(validator)).to.have.property("unbondingResponses");
      expect(await query.staking.historicalInfo(1)).to.have.property("hist");

      const pool = (await query.distribution.communityPool()).pool.map((c) => c.denom);
      expect(pool).to.deep.equal((await chain.rest("/cosmos/distribution/v1beta1/community_pool")).pool.map((c: { denom: string }) => c.denom));
      expect((await query.distribution.params()).params?.communityTax).to.be.a("string");
      expect((await query.distribution.delegatorWithdrawAddress(a0)).withdrawAddress).to.equal(
        (await chain.rest(`/cosmos/distribution/v1beta1/delegators/${a0}/withdraw_address`)).withdraw_address,
      );
      expect((await query.distribution.delegatorValidators(a0)).validators).to.deep.equal(
        (await chain.rest(`/cosmos/distribution/v1beta1/delegators/${a0}/validators`)).validators,
      );
      expect(await query.distribution.delegationTotalRewards(a0)).to.have.property("rewards");
      expect(await query.distribution.validatorOutstandingRewards(validator)).to.have.property("rewards");
      expect(await query.distribution.validatorCommission(validator)).to.have.property("commission");
      expect(await query.distribution.validatorSlashes(validator, 1, await comet.status().then((s) => s.syncInfo.latestBlockHeight))).to.have.property(
        "slashes",
      );

      const proposals = await query.gov.proposals(ProposalStatus.PROPOSAL_STATUS_UNSPECIFIED, "", "");
      expect(proposals.proposals.map((p) => p.proposalId.toString())).to.deep.equal(
        (await chain.rest("/cosmos/gov/v1beta1/proposals")).proposals.map((p: { proposal_id: string }) => p.proposal_id),
      );
      expect((await query.gov.proposal(2)).proposal?.content?.typeUrl).to.equal("/cosmos.gov.v1beta1.TextProposal");
      expect((await query.gov.deposits(2)).deposits.length).to.equal((await chain.rest("/cosmos/gov/v1beta1/proposals/2/deposits")).deposits.length);
      expect((await query.gov.deposit(2, a0)).deposit?.depositor).to.equal(a0);
      expect((await query.gov.votes(2)).votes.length).to.equal((await chain.rest("/cosmos/gov/v1beta1/proposals/2/votes")).votes.length);
      expect((await query.gov.vote(2, addresses[1]!)).vote?.voter).to.equal(addresses[1]);
      expect(await query.gov.tally(2)).to.have.property("tally");
      for (const kind of ["deposit", "voting", "tallying"] as const)
        expect(await query.gov.params(kind)).to.have.property(`${kind === "tallying" ? "tally" : kind}Params`);

      expect((await query.slashing.params()).params?.signedBlocksWindow.toString()).to.equal(
        (await chain.rest("/cosmos/slashing/v1beta1/params")).params.signed_blocks_window,
      );
      const infos = await query.slashing.signingInfos();
      expect(infos.info.length).to.equal((await chain.rest("/cosmos/slashing/v1beta1/signing_infos")).info.length);
      expect((await query.slashing.signingInfo(infos.info[0]!.address)).valSigningInfo?.address).to.equal(infos.info[0]!.address);

      expect((await query.ibc.client.allStates()).clientStates.length).to.equal(
        (await chain.rest("/ibc/core/client/v1beta1/client_states")).client_states.length,
      );
      expect(await query.ibc.connection.allConnections()).to.have.property("connections");
      expect(await query.ibc.channel.allChannels()).to.have.property("channels");
      // cosmjs-types 0.11 asks ibc-go v8's transfer Query/Denom(s), which SDK v0.41's IBC (and so a real hub) does not have
      const traces = await query.ibc.transfer.allDenomTraces().then(
        () => "",
        (err: Error) => err.message,
      );
      expect(traces).to.match(/unknown query path: unknown request/);
      expect((await query.ibc.transfer.params()).params).to.have.property("sendEnabled");

      const wallet = await DirectSecp256k1HdWallet.fromMnemonic(TEST_MNEMONIC, { prefix: "hub", hdPaths: hdPaths(4) });
      const signing = await connectSigningClient(chain.node.rpcUrl, wallet);
      const hash = (await signing.sendTokens(addresses[4]!, a1, coins(1, "uhub"), FEE)).transactionHash;
      signing.disconnect();
      const sent = (await chain.rest(`/cosmos/tx/v1beta1/txs?events=${encodeURIComponent(`message.sender='${addresses[4]}'`)}`)).tx_responses;
      expect(sent.map((t: { txhash: string }) => t.txhash)).to.include(hash);
      const tx = await query.tx.getTx(hash);
      expect(tx.txResponse?.txhash).to.equal(hash);
      expect(tx.tx?.body?.messages[0]?.typeUrl).to.equal("/cosmos.bank.v1beta1.MsgSend");
      expect(Number(tx.txResponse?.height)).to.equal(Number((await chain.rest(`/cosmos/tx/v1beta1/txs/${hash}`)).tx_response.height));
      const [signerAccount] = await wallet.getAccounts();
      const sequence = Number(
        (await query.auth.account(addresses[4]!)) && (await chain.rest(`/cosmos/auth/v1beta1/accounts/${addresses[4]}`)).account.sequence,
      );
      const send = {
        typeUrl: "/cosmos.bank.v1beta1.MsgSend",
        value: MsgSend.encode({ fromAddress: addresses[4]!, toAddress: a1, amount: coins(1, "uhub") }).finish(),
      };
      const simulated = await query.tx.simulate([send], "", encodeSecp256k1Pubkey(signerAccount!.pubkey), sequence);
      expect(Number(simulated.gasInfo?.gasUsed)).to.be.greaterThan(0);
    } finally {
      comet.disconnect();
    }
  });

  it("a gateway of the other profile in front of the node answers 502 saying which names the node speaks", async () => {
    const seed = await startGateway(path.join(tempDir(), "seed-gateway"), chain.node.rpcUrl);
    try {
      for (const route of ["/core/bank/v1beta1/params", "/cosmos/bank/v1beta1/params", "/bank/total"]) {
        const answer = await http(`${seed.restUrl}${route}`);
        expect(answer.status, route).to.equal(502);
        expect(answer.body.message).to.include('the node speaks the "cosmos" names').and.include("--names cosmos");
      }
    } finally {
      await seed.proc.stop();
    }
  });

  it("GET /swagger (what the Swagger UI at /swagger/ shows) lists the real paths, on the node and on the gateway", async () => {
    for (const base of [chain.node.restUrl, chain.gateway.restUrl]) {
      const document = (await http(`${base}/swagger`)).body;
      expect(Object.keys(document.paths)).to.include.members([
        "/cosmos/bank/v1beta1/balances/{address}",
        "/irismod/token/tokens",
        "/cosmos/base/tendermint/v1beta1/node_info",
      ]);
      expect(Object.keys(document.paths).filter((p) => /^\/(core|extmod|hubmod)\//.test(p))).to.deep.equal([]);
      expect((await http(`${base}/swagger/`)).status).to.equal(200);
    }
  });

  it("the extension modules under their real names: /irismod/..., /irishub/..., irismod/ amino names on the legacy routes", async () => {
    const tokens = (await chain.rest("/irismod/token/tokens")).Tokens;
    expect(tokens[0]["@type"]).to.equal("/irismod.token.Token");
    expect((await chain.rest("/token/tokens")).result[0].type).to.equal("irismod/token/Token");
    expect(await chain.rest("/irishub/guardian/supers")).to.have.property("supers");
    expect(await chain.rest("/irismod/nft/denoms")).to.have.property("denoms");
  });

  it("the mint extension cannot work: cosmjs asks cosmos.mint.v1beta1, which the hub does not run (its mint is irishub.mint, a real irishub node answers the same)", async () => {
    const comet = await connectComet(chain.node.rpcUrl);
    try {
      const query = QueryClient.withExtensions(comet, setupMintExtension);
      let failure: Error | undefined;
      await query.mint.params().catch((err: Error) => (failure = err));
      expect(failure?.message).to.match(/unknown query path: unknown request/);
      // the hub's own mint module answers under its real name
      expect((await chain.rest("/irishub/mint/params")).params).to.have.property("inflation");
    } finally {
      comet.disconnect();
    }
  });
});
