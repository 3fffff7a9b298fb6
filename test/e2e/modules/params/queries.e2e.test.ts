import { expect } from "chai";
import type { HttpAnswer } from "../../../helpers/http.js";
import { useStartedDevChain } from "../../../helpers/startedDevChain.js";

/** The params routes over HTTP against `chain-rest start`, with the values of the development genesis. */
describe("e2e: params routes", function () {
  this.timeout(60_000);
  const { get } = useStartedDevChain();

  const expectError = (r: HttpAnswer, status: number, message: string) => {
    expect(r.status, r.text).to.equal(status);
    expect(r.body).to.deep.equal({ code: status === 404 ? 5 : 3, message, details: [] });
  };

  const param = async (subspace: string, key: string) => {
    const r = await get(`/core/params/v1beta1/params?subspace=${subspace}&key=${key}`);
    expect(r.status, r.text).to.equal(200);
    expect(r.body.param.subspace).to.equal(subspace);
    expect(r.body.param.key).to.equal(key);
    return r.body.param.value as string;
  };

  it("gives each parameter as the amino JSON text x/params stores: 64-bit integers and decimals quoted", async () => {
    const expected: Array<[string, string, string]> = [
      ["auth", "MaxMemoCharacters", '"256"'],
      ["auth", "TxSigLimit", '"7"'],
      ["auth", "TxSizeCostPerByte", '"10"'],
      ["auth", "SigVerifyCostED25519", '"590"'],
      ["auth", "SigVerifyCostSecp256k1", '"1000"'],
      ["bank", "SendEnabled", "[]"],
      ["bank", "DefaultSendEnabled", "true"],
      ["mint", "Inflation", '"0.040000000000000000"'],
      ["mint", "MintDenom", '"uhub"'],
      ["ibc", "AllowedClients", '["06-solomachine","07-tendermint"]'],
      ["transfer", "SendEnabled", "true"],
      ["transfer", "ReceiveEnabled", "true"],
    ];
    for (const [subspace, key, value] of expected) expect(await param(subspace, key), `${subspace}/${key}`).to.equal(value);
  });

  it("answers the whole response shape", async () => {
    expect((await get("/core/params/v1beta1/params?subspace=mint&key=MintDenom")).body).to.deep.equal({
      param: { subspace: "mint", key: "MintDenom", value: '"uhub"' },
    });
  });

  it("400 naming the known subspaces for an unknown subspace", async () => {
    const r = await get("/core/params/v1beta1/params?subspace=nothing&key=Foo");
    expect(r.status).to.equal(400);
    expect(r.body.code).to.equal(3);
    expect(r.body.message).to.match(
      /^rpc error: code = InvalidArgument desc = unknown subspace "nothing": the known subspaces are auth, bank, .*mint, ibc, transfer/,
    );
  });

  it("400 naming the subspace's keys for an unknown key", async () => {
    expectError(
      await get("/core/params/v1beta1/params?subspace=transfer&key=Foo"),
      400,
      'rpc error: code = InvalidArgument desc = unknown key "Foo" in subspace transfer: its keys are SendEnabled, ReceiveEnabled: invalid request',
    );
  });

  it("400 when subspace or key is missing", async () => {
    for (const query of ["", "?subspace=auth", "?key=TxSigLimit"]) {
      expectError(
        await get(`/core/params/v1beta1/params${query}`),
        400,
        "rpc error: code = InvalidArgument desc = subspace and key are both required, e.g. ?subspace=auth&key=MaxMemoCharacters: invalid request",
      );
    }
  });
});
