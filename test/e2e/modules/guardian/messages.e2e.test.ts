import { expect } from "chai";
import { aminoWallet } from "../../../helpers/aminoWallet.js";
import { TEST_MNEMONIC } from "../../../helpers/devNode.js";
import { LEGACY_FEE, LegacyTxFlow } from "../../../helpers/legacyTxFlow.js";
import { useStartedDevChain } from "../../../helpers/startedDevChain.js";
import { directTx, testSigner } from "../../../helpers/txSigner.js";

/**
 * The guardian Msgs have no legacy POST route (the real module registers none): a super is added
 * with a cosmjs Direct-signed transaction on the gateway, and deleted with an amino-signed StdTx
 * on POST /txs.
 */
describe("e2e: guardian transactions", function () {
  this.timeout(120_000);
  const chain = useStartedDevChain({ accounts: 4, mnemonic: TEST_MNEMONIC });
  const flow = new LegacyTxFlow(() => chain.node().restUrl);
  const supers = async () =>
    ((await chain.ok("/hubmod/guardian/supers")).supers as Array<{ address: string; account_type: string }>).map((s) => [s.address, s.account_type]);

  it("the genesis super adds a super (Direct signing, POST /core/tx/v1beta1/txs)", async () => {
    const [genesis, other] = await Promise.all([testSigner(TEST_MNEMONIC, 0), testSigner(TEST_MNEMONIC, 3)]);
    const bytes = await directTx(genesis, {
      messages: [{ typeUrl: "/hubmod.guardian.MsgAddSuper", value: { description: "operations", address: other.address, added_by: genesis.address } }],
      sequence: 0,
      accountNumber: 0,
    });
    const sent = await flow.post("/core/tx/v1beta1/txs", { tx_bytes: Buffer.from(bytes).toString("base64"), mode: "BROADCAST_MODE_BLOCK" });
    expect(sent.body.tx_response.code, sent.body.tx_response.raw_log).to.equal(0);
    expect(await supers()).to.deep.include.members([
      [genesis.address, "GENESIS"],
      [other.address, "ORDINARY"],
    ]);
  });

  it("an ORDINARY super may not delete; the genesis super deletes it (amino signing, POST /txs)", async () => {
    const [genesis, other] = await Promise.all([aminoWallet(0), aminoWallet(3)]);
    const remove = (by: string) => [{ type: "hubmod/guardian/MsgDeleteSuper", value: { address: other.address, deleted_by: by } }];
    const signedBy = async (wallet: typeof genesis, sequence: number) => {
      const msgs = remove(wallet.address);
      const signature = await wallet.sign(msgs, LEGACY_FEE, "", sequence);
      return flow.post("/txs", { tx: { msg: msgs, fee: LEGACY_FEE, memo: "", signatures: [signature] }, mode: "block" });
    };
    const refused = await signedBy(other, 0);
    expect([refused.body.codespace, refused.body.code]).to.deep.equal(["guardian", 2]);
    const deleted = await signedBy(genesis, 1);
    expect(deleted.body.code, deleted.body.raw_log).to.equal(undefined);
    expect(await supers()).to.deep.equal([[genesis.address, "GENESIS"]]);
  });
});
