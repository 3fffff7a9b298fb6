import { expect } from "chai";
import { devAppState, validateModuleGenesis, type GenesisJson } from "../../../helpers/moduleGenesis.js";
import { htlcModule } from "../../../../src/node/modules/htlc/module.js";

const appState = () => devAppState({ accounts: 10 });
const validate = validateModuleGenesis;
type Json = GenesisJson;

describe("htlc genesis", () => {
  const expectError = (edit: (htlc: Json, state: Json) => void, message: string) => {
    const state = appState().htlc;
    edit(Object.values(state.pending_htlcs)[0] as Json, state);
    expect(() => validate(htlcModule, state)).to.throw(message);
  };

  it("rejects an HTLC that is not open, or has a bad hash lock, address, amount or secret", () => {
    expectError((h) => (h.state = "HTLC_STATE_COMPLETED"), "HTLC not open");
    expectError((h, s) => (s.pending_htlcs = { abcd: h }), "pending_htlcs[abcd]: length of the hash lock must be 32 in bytes");
    expectError((h, s) => (s.pending_htlcs = { xyz: h }), "pending_htlcs[xyz]: invalid hash lock xyz");
    expectError((h) => (h.sender = "hub1bad"), ".sender: invalid sender address");
    expectError((h) => (h.amount = []), ".amount: the transferred amount must be valid");
    expectError((h) => (h.secret = "abcd"), ".secret: length of the secret must be 32 in bytes");
    expectError(
      (h) => (h.receiver_on_other_chain = "x".repeat(129)),
      ".receiver_on_other_chain: length of the receiver on other chain must be between [0,128]",
    );
  });
});
