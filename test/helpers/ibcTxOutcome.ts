import { expect } from "chai";
import { coins, type EncodeObject } from "@cosmjs/proto-signing";
import type { SigningStargateClient } from "@cosmjs/stargate";
import { http } from "./http.js";

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
    expect(answer.log).to.include(log);
  };
  return { rest, outcome, refused };
}
