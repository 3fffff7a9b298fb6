import { expect } from "chai";
import { useStartedDevChain } from "../../../helpers/startedDevChain.js";

/** The mint routes over HTTP against `chain-rest start`, with the values of the development genesis. */
describe("e2e: mint routes", function () {
  this.timeout(60_000);
  const { get } = useStartedDevChain();

  it("serves the mint params of the genesis; res is never filled", async () => {
    const r = await get("/hubmod/mint/params");
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal({ params: { mint_denom: "uhub", inflation: "0.040000000000000000" }, res: null });
  });
});
