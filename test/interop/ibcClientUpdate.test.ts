import { expect } from "chai";
import path from "node:path";
import { createHash } from "node:crypto";
import { ClientState, ConsensusState, Misbehaviour } from "cosmjs-types/ibc/lightclients/tendermint/v1/tendermint";
import { Any as AnyType } from "cosmjs-types/google/protobuf/any";
import type { Any } from "cosmjs-types/google/protobuf/any";
import { tempDir } from "../helpers/tempDir.js";
import { SDK_PROOF_SPECS, startIbcTestChain, stopIbcTestChain, type IbcTestChain } from "../helpers/ibcTestChain.js";
import { handshakes } from "../helpers/ibcHandshakes.js";
import { ibcStoreTree } from "../helpers/ibcProofTree.js";
import { signedHeader, signedHeaderAny, testValidators, validatorSetHash, type HeaderSpec } from "../helpers/signedTendermintHeader.js";

/**
 * MsgUpdateClient with headers signed by real ed25519 validator keys of a counterparty "other-2"
 * built in the test: the node verifies them as 07-tendermint + Tendermint's light client do.
 */
const sha256 = (text: string) => Uint8Array.from(createHash("sha256").update(text).digest());
const seconds = (value: bigint) => ({ seconds: value, nanos: 0 });

const validators = testValidators("other-2", 3);
const strangers = testValidators("someone else", 3);
const TWO_WEEKS = 1_209_600n;

describe("interop: MsgUpdateClient verifies 07-tendermint headers signed by ed25519 validators (cosmjs)", function () {
  this.timeout(120_000);
  const home = path.join(tempDir(), "home");
  let chain: IbcTestChain | undefined;
  let signer: string;
  let io: IbcTestChain["io"];
  /** the node's block time is the wall clock: headers are dated relative to the test's start */
  const now = BigInt(Math.floor(Date.now() / 1000));

  const clientStateAny = (): Any => ({
    typeUrl: "/ibc.lightclients.tendermint.v1.ClientState",
    value: ClientState.encode(
      ClientState.fromPartial({
        chainId: "other-2",
        trustLevel: { numerator: 1n, denominator: 3n },
        trustingPeriod: seconds(TWO_WEEKS),
        unbondingPeriod: seconds(1_814_400n),
        maxClockDrift: seconds(10n),
        frozenHeight: { revisionNumber: 0n, revisionHeight: 0n },
        latestHeight: { revisionNumber: 2n, revisionHeight: 50n },
        proofSpecs: SDK_PROOF_SPECS,
        upgradePath: ["upgrade", "upgradedIBCState"],
      }),
    ).finish(),
  });
  const consensusStateAny = (timeSeconds: bigint, root: Uint8Array = sha256("app hash at 50")): Any => ({
    typeUrl: "/ibc.lightclients.tendermint.v1.ConsensusState",
    value: ConsensusState.encode(
      ConsensusState.fromPartial({
        timestamp: seconds(timeSeconds),
        root: { hash: root },
        nextValidatorsHash: validatorSetHash(validators),
      }),
    ).finish(),
  });
  const createClient = async (consensusTime: bigint, root?: Uint8Array) => {
    const created = await io.outcome({
      typeUrl: "/ibc.core.client.v1.MsgCreateClient",
      value: { signer, clientState: clientStateAny(), consensusState: consensusStateAny(consensusTime, root) },
    });
    expect(created.code, created.log).to.equal(0);
    return created.events.get("create_client")!.client_id!;
  };
  const header = (change: Partial<HeaderSpec> = {}) =>
    signedHeaderAny({
      chainId: "other-2",
      height: 51n,
      timeSeconds: now - 30n,
      appHash: sha256("app hash at 51"),
      validators,
      trustedHeight: { revisionNumber: 2n, revisionHeight: 50n },
      trustedValidators: validators,
      ...change,
    });
  const update = (clientId: string, headerAny: Any) => ({
    typeUrl: "/ibc.core.client.v1.MsgUpdateClient",
    value: { signer, clientId, clientMessage: headerAny },
  });

  before(async () => {
    chain = await startIbcTestChain(home);
    ({ signer, io } = chain);
  });
  after(() => stopIbcTestChain(chain));

  it("accepts an adjacent header signed by the trusted validators, then a non-adjacent one: latest height and consensus states move", async () => {
    const clientId = await createClient(now - 60n);
    const accepted = await io.outcome(update(clientId, header()));
    expect(accepted.code, accepted.log).to.equal(0);
    expect(accepted.events.get("update_client")).to.deep.equal({ client_id: clientId, client_type: "07-tendermint", consensus_height: "2-51" });
    expect(accepted.events.get("message")).to.deep.include({ module: "ibc_client" });
    const state = await io.rest(`/ibc/core/client/v1beta1/client_states/${clientId}`);
    expect(state.client_state.latest_height).to.deep.equal({ revision_number: "2", revision_height: "51" });
    const consensus = await io.rest(`/ibc/core/client/v1beta1/consensus_states/${clientId}/revision/2/height/51`);
    expect(consensus.consensus_state.root.hash).to.equal(Buffer.from(sha256("app hash at 51")).toString("base64"));
    expect(consensus.consensus_state.next_validators_hash).to.equal(Buffer.from(validatorSetHash(validators)).toString("base64"));

    // 2-60 from 2-51: the trust level path (a third of the trusted power) and +2/3 of the new set
    const skipped = await io.outcome(
      update(
        clientId,
        header({ height: 60n, timeSeconds: now - 20n, appHash: sha256("app hash at 60"), trustedHeight: { revisionNumber: 2n, revisionHeight: 51n } }),
      ),
    );
    expect(skipped.code, skipped.log).to.equal(0);
    expect(skipped.events.get("update_client")).to.deep.include({ consensus_height: "2-60" });
    const after = await io.rest(`/ibc/core/client/v1beta1/client_states/${clientId}`);
    expect(after.client_state.latest_height).to.deep.equal({ revision_number: "2", revision_height: "60" });
  });

  it("refuses a bad signature, too little signing power, an expired trusting period and wrong validator sets with the real errors", async () => {
    const clientId = await createClient(now - 60n);
    const prefix = `cannot update client with ID ${clientId}: failed to verify header`;
    const badSignature = await io.outcome(update(clientId, header({ corruptSignature: 0 })));
    expect({ codespace: badSignature.codespace, code: badSignature.code }).to.deep.equal({ codespace: "undefined", code: 1 });
    expect(badSignature.log).to.match(new RegExp(`message index: 0: ${prefix}: invalid header: wrong signature \\(#0\\): [0-9A-F]{128}$`));

    await io.refused(
      update(clientId, header({ signers: validators.slice(0, 2) })),
      "undefined",
      1,
      `${prefix}: invalid header: invalid commit -- insufficient voting power: got 20, needed more than 20`,
    );

    const stale = await createClient(now - TWO_WEEKS - 3600n);
    await io.refused(update(stale, header()), "undefined", 1, `cannot update client with ID ${stale}: failed to verify header: old header has expired at `);

    // trusted validators that are not the consensus state's next validators
    await io.refused(
      update(clientId, header({ trustedValidators: strangers })),
      "tendermint-client",
      13,
      `cannot update client with ID ${clientId}: trusted validators of 3 validators, does not hash to latest trusted validators.`,
    );
    // an adjacent header by another validator set than the trusted next validators
    await io.refused(update(clientId, header({ validators: strangers })), "undefined", 1, `${prefix}: expected old header next validators (`);
    // CheckTx: a header whose validator set is not the one it names (ValidateBasic)
    await io.refused(
      update(clientId, header({ afterSigning: (h) => (h.validatorsHash = validatorSetHash(strangers)) })),
      "undefined",
      1,
      "header failed basic validation: commit signs block",
    );
    // nothing moved
    const state = await io.rest(`/ibc/core/client/v1beta1/client_states/${clientId}`);
    expect(state.client_state.latest_height).to.deep.equal({ revision_number: "2", revision_height: "50" });
  });

  it("freezes the client on misbehaviour: two signed headers for one height, each verified against the trusted validators", async () => {
    const clientId = await createClient(now - 60n);
    const base = { chainId: "other-2", height: 51n, timeSeconds: now - 30n, validators, trustedHeight: { revisionNumber: 2n, revisionHeight: 50n } };
    const misbehaviour = (trustedValidators = validators, second: Partial<HeaderSpec> = {}) => ({
      typeUrl: "/ibc.core.client.v1.MsgSubmitMisbehaviour",
      value: {
        signer,
        clientId,
        misbehaviour: {
          typeUrl: "/ibc.lightclients.tendermint.v1.Misbehaviour",
          value: Misbehaviour.encode({
            clientId,
            header1: signedHeader({ ...base, appHash: sha256("one app hash at 51"), trustedValidators }),
            header2: signedHeader({ ...base, appHash: sha256("another app hash at 51"), trustedValidators, ...second }),
          }).finish(),
        },
      },
    });
    // ValidateBasic (CheckTx): one height, two different blocks, each commit signed by +2/3 of its set, each header consistent
    await io.refused(misbehaviour(validators, { height: 52n }), "client", 13, "headers in misbehaviour are on different heights ({2 51} ≠ {2 52})");
    await io.refused(misbehaviour(validators, { appHash: sha256("one app hash at 51") }), "client", 13, "headers block hashes are equal");
    await io.refused(misbehaviour(validators, { signers: validators.slice(0, 2) }), "client", 13, "validator set did not commit to header");
    await io.refused(
      misbehaviour(validators, { afterSigning: (h) => (h.appHash = sha256("altered")) }),
      "client",
      13,
      "header 2 failed validation: header failed basic validation: commit signs block",
    );
    await io.refused(
      misbehaviour(strangers),
      "tendermint-client",
      13,
      `failed to process misbehaviour for IBC client: verifying Header1 in Misbehaviour failed: trusted validators of 3 validators, does not hash`,
    );
    const frozen = await io.outcome(misbehaviour());
    expect(frozen.code, frozen.log).to.equal(0);
    expect(frozen.events.get("client_misbehaviour")).to.deep.equal({ client_id: clientId, client_type: "07-tendermint", consensus_height: "2-51" });
    const state = await io.rest(`/ibc/core/client/v1beta1/client_states/${clientId}`);
    expect(state.client_state.frozen_height).to.deep.equal({ revision_number: "2", revision_height: "51" });
    await io.refused(update(clientId, header()), "client", 5, `cannot update client with ID ${clientId}: light client is frozen due to misbehaviour`);
  });

  it("runs the connection and channel handshakes on roots the client holds: TRYOPEN/OPEN/CLOSED ends and events", async function () {
    await handshakes({ io, signer, createClient, consensusTime: now - 60n, update: (clientId, appHash) => update(clientId, header({ appHash })) });
  });

  it("upgrades a client to the state the old chain's upgrade store committed under the upgrade path", async () => {
    const upgradedClient: Any = {
      typeUrl: "/ibc.lightclients.tendermint.v1.ClientState",
      // what SetUpgradedClient stores: the chain-wide fields only (ZeroCustomFields)
      value: ClientState.encode(
        ClientState.fromPartial({
          chainId: "other-3",
          unbondingPeriod: seconds(1_728_000n),
          latestHeight: { revisionNumber: 3n, revisionHeight: 1n },
          proofSpecs: SDK_PROOF_SPECS,
          upgradePath: ["upgrade", "upgradedIBCState"],
        }),
      ).finish(),
    };
    const nextValidators = validatorSetHash(strangers);
    const upgradedConsensus: Any = {
      typeUrl: "/ibc.lightclients.tendermint.v1.ConsensusState",
      value: ConsensusState.encode(
        ConsensusState.fromPartial({ timestamp: seconds(now), root: { hash: new Uint8Array() }, nextValidatorsHash: nextValidators }),
      ).finish(),
    };
    const [clientKey, consensusKey] = ["upgradedIBCState/50/upgradedClient", "upgradedIBCState/50/upgradedConsState"];
    const upgradeStore = ibcStoreTree(
      { [clientKey]: AnyType.encode(upgradedClient).finish(), [consensusKey]: AnyType.encode(upgradedConsensus).finish() },
      "upgrade",
    );
    const clientId = await createClient(now - 60n, upgradeStore.appHash);
    const upgrade = (proofUpgradeClient: Uint8Array, proofUpgradeConsensusState: Uint8Array) => ({
      typeUrl: "/ibc.core.client.v1.MsgUpgradeClient",
      value: { signer, clientId, clientState: upgradedClient, consensusState: upgradedConsensus, proofUpgradeClient, proofUpgradeConsensusState },
    });
    await io.refused(
      upgrade(upgradeStore.proof(consensusKey), upgradeStore.proof(consensusKey)),
      "commitment",
      2,
      `cannot upgrade client with ID ${clientId}: client state proof failed. Path: /upgrade/upgradedIBCState/50/upgradedClient: chained membership proof failed to verify membership of value`,
    );
    const upgraded = await io.outcome(upgrade(upgradeStore.proof(clientKey), upgradeStore.proof(consensusKey)));
    expect(upgraded.code, upgraded.log).to.equal(0);
    expect(upgraded.events.get("upgrade_client")).to.deep.equal({ client_id: clientId, client_type: "07-tendermint", consensus_height: "3-1" });
    const state = (await io.rest(`/ibc/core/client/v1beta1/client_states/${clientId}`)).client_state;
    // the chain's new fields, this client's own trust parameters
    expect(state).to.deep.include({ chain_id: "other-3", unbonding_period: "1728000s", trusting_period: `${TWO_WEEKS}s`, max_clock_drift: "10s" });
    expect(state.latest_height).to.deep.equal({ revision_number: "3", revision_height: "1" });
    const consensus = (await io.rest(`/ibc/core/client/v1beta1/consensus_states/${clientId}/revision/3/height/1`)).consensus_state;
    expect(consensus.next_validators_hash).to.equal(Buffer.from(nextValidators).toString("base64"));
    expect(consensus.root.hash ?? "").to.equal(""); // an empty root (rendered null, as Go renders nil bytes)
  });
});
