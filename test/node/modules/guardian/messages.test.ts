import { expect } from "chai";
import { attributesOf, NodeTxKit } from "../../../helpers/nodeTxKit.js";

type Json = Record<string, any>;

/** The hub's guardian Msgs: the dev chain's GENESIS super (account 0) adds and deletes ORDINARY supers; nobody else may. */
describe("guardian Msgs", function () {
  this.timeout(60_000);
  let kit: NodeTxKit;
  before(async () => {
    kit = await NodeTxKit.open(4);
  });
  after(() => kit.close());

  const add = (by: number, address: number, description = "an operator") => ({
    typeUrl: "/hubmod.guardian.MsgAddSuper",
    value: { description, address: kit.addresses[address], added_by: kit.addresses[by] },
  });
  const remove = (by: number, address: number) => ({
    typeUrl: "/hubmod.guardian.MsgDeleteSuper",
    value: { address: kit.addresses[address], deleted_by: kit.addresses[by] },
  });
  const supers = async () => ((await kit.query("hubmod.guardian.Query.Supers")).body.supers as Json[]).map((s) => [s.address, s.account_type]);

  it("a GENESIS super adds an ORDINARY super; message{module, sender} comes before add_super", async () => {
    const added = await kit.deliver(0, [add(0, 1)]);
    expect(added.code, added.log).to.equal(0);
    expect(await supers()).to.deep.include.members([
      [kit.addresses[0], "GENESIS"],
      [kit.addresses[1], "ORDINARY"],
    ]);
    const types = added.events.map((e) => e.type);
    expect(types.lastIndexOf("message")).to.be.lessThan(types.indexOf("add_super"));
    expect(attributesOf(added.events, "add_super")).to.deep.equal([{ address: kit.addresses[1], added_by: kit.addresses[0] }]);
  });

  it("refuses an ORDINARY super or a stranger as operator, an existing super, and a bad description", async () => {
    const ordinary = await kit.deliver(1, [add(1, 2)]);
    expect([ordinary.codespace, ordinary.code, ordinary.log]).to.deep.equal([
      "guardian",
      2,
      `failed to execute message; message index: 0: ${kit.addresses[1]}: unknown operator`,
    ]);
    const again = await kit.deliver(0, [add(0, 1)]);
    expect([again.codespace, again.code]).to.deep.equal(["guardian", 4]);
    const empty = await kit.deliver(0, [add(0, 2, "")]);
    expect([empty.codespace, empty.code, empty.log]).to.deep.equal(["sdk", 18, "description missing: invalid request"]);
    const long = await kit.deliver(0, [add(0, 2, "x".repeat(71))]);
    expect(long.log).to.equal("invalid website length; got: 71, max: 70: invalid request");
  });

  it("deletes an ORDINARY super; a GENESIS super cannot be deleted, an unknown one is refused", async () => {
    const genesis = await kit.deliver(0, [remove(0, 0)]);
    expect([genesis.codespace, genesis.code, genesis.log]).to.deep.equal([
      "guardian",
      5,
      `failed to execute message; message index: 0: ${kit.addresses[0]}: can't delete genesis super`,
    ]);
    const unknown = await kit.deliver(0, [remove(0, 3)]);
    expect([unknown.codespace, unknown.code]).to.deep.equal(["guardian", 3]);
    const deleted = await kit.deliver(0, [remove(0, 1)]);
    expect(deleted.code, deleted.log).to.equal(0);
    expect(attributesOf(deleted.events, "delete_super")).to.deep.equal([{ address: kit.addresses[1], deleted_by: kit.addresses[0] }]);
    expect(await supers()).to.deep.equal([[kit.addresses[0], "GENESIS"]]);
  });
});
