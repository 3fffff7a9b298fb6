import { expect } from "chai";
import { coins, DirectSecp256k1HdWallet, makeCosmoshubPath, type EncodeObject } from "@cosmjs/proto-signing";
import type { SigningStargateClient } from "@cosmjs/stargate";
import { HashOp, LengthOp, type ProofSpec } from "cosmjs-types/cosmos/ics23/v1/proofs";
import { TEST_MNEMONIC } from "./devNode.js";
import { http } from "./http.js";
import { runCliToEnd, startNode, type StartedNode } from "./processes.js";
import { connectSigningClient } from "./signingClient.js";

const FEE = { amount: coins(5000, "uhub"), gas: "400000" };
const b64text = (value: string) => Buffer.from(value, "base64").toString();

/** Sending one IBC Msg through cosmjs and reading what the node answered, in CheckTx (ValidateBasic) or DeliverTx (the keeper). */
export function ibcOutcomes(client: SigningStargateClient, signer: string, restUrl: string) {
  const rest = async (route: string) => {
    const answer = await http(`${restUrl}${route}`, { headers: { accept: "application/json" } });
    expect(answer.status, `${route}: ${answer.text}`).to.equal(200);
    return answer.body;
  };
  const outcome = async (message: EncodeObject) => {
    try {
      const result = await client.signAndBroadcast(signer, [message], FEE);
      const events = new Map(result.events.map((e) => [e.type, Object.fromEntries(e.attributes.map((a) => [b64text(a.key), b64text(a.value)]))] as const));
      // cosmjs' DeliverTxResponse has no codespace: the node's own record of the tx has it
      const codespace = result.code === 0 ? "" : String((await rest(`/cosmos/tx/v1beta1/txs/${result.transactionHash}`)).tx_response.codespace);
      return { code: result.code, codespace, log: result.rawLog ?? "", events };
    } catch (err) {
      const e = err as { code?: number; codespace?: string; log?: string; message: string };
      if (e.code === undefined) throw err;
      return { code: e.code, codespace: e.codespace ?? "", log: e.log ?? e.message, events: new Map<string, Record<string, string>>() };
    }
  };
  const refused = async (message: EncodeObject, codespace: string, code: number, log: string) => {
    const answer = await outcome(message);
    expect({ codespace: answer.codespace, code: answer.code }, answer.log).to.deep.equal({ codespace, code });
    expect(answer.log, answer.log).to.include(log);
  };
  return { rest, outcome, refused };
}

/** The SDK's proof specs (IAVL, then the Tendermint simple tree): commitmenttypes.GetSDKSpecs(). */
const leafSpec = { hash: HashOp.SHA256, prehashKey: HashOp.NO_HASH, prehashValue: HashOp.SHA256, length: LengthOp.VAR_PROTO, prefix: Uint8Array.of(0) };
export const SDK_PROOF_SPECS: ProofSpec[] = [
  { leafSpec, innerSpec: { childOrder: [0, 1], childSize: 33, minPrefixLength: 4, maxPrefixLength: 12, emptyChild: new Uint8Array(), hash: HashOp.SHA256 } },
  { leafSpec, innerSpec: { childOrder: [0, 1], childSize: 32, minPrefixLength: 1, maxPrefixLength: 1, emptyChild: new Uint8Array(), hash: HashOp.SHA256 } },
].map((spec) => ({ ...spec, maxDepth: 0, minDepth: 0 }));

export interface IbcTestChain {
  node: StartedNode;
  client: SigningStargateClient;
  signer: string;
  io: ReturnType<typeof ibcOutcomes>;
}

/** A cosmos-profile dev chain in `home` with a cosmjs signer (account 1); `beforeStart` may edit the home after init. */
export async function startIbcTestChain(home: string, beforeStart?: () => Promise<void>): Promise<IbcTestChain> {
  const init = await runCliToEnd(["init", "--home", home, "--names", "cosmos", "--accounts", "4", "--mnemonic", TEST_MNEMONIC]);
  expect(init.code, init.output).to.equal(0);
  await beforeStart?.();
  const wallet = await DirectSecp256k1HdWallet.fromMnemonic(TEST_MNEMONIC, { prefix: "hub", hdPaths: [makeCosmoshubPath(1)] });
  const signer = (await wallet.getAccounts())[0]!.address;
  const node = await startNode(home);
  const client = await connectSigningClient(node.rpcUrl, wallet);
  return { node, client, signer, io: ibcOutcomes(client, signer, node.restUrl) };
}

export async function stopIbcTestChain(chain: IbcTestChain | undefined): Promise<void> {
  chain?.client.disconnect();
  await chain?.node.proc.stop();
}
