import { expect } from "chai";
import type { HttpAnswer } from "../../../helpers/http.js";
import { useStartedDevChain } from "../../../helpers/startedDevChain.js";

/** The upgrade routes over HTTP against `chain-rest start`, with the values of the development genesis. */
describe("e2e: upgrade routes", function () {
  this.timeout(60_000);
  const { get } = useStartedDevChain();

  const expectError = (r: HttpAnswer, status: number, message: string) => {
    expect(r.status, r.text).to.equal(status);
    expect(r.body).to.deep.equal({ code: status === 404 ? 5 : 3, message, details: [] });
  };

  it("answers the current plan as null", async () => {
    const r = await get("/core/upgrade/v1beta1/current_plan");
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal({ plan: null });
  });

  it("answers height 0 for a plan that was not applied", async () => {
    const r = await get("/core/upgrade/v1beta1/applied_plan/v2-upgrade");
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal({ height: "0" });
  });

  it("404 for the upgraded consensus state of a height without one", async () => {
    expectError(
      await get("/core/upgrade/v1beta1/upgraded_consensus_state/5"),
      404,
      "rpc error: code = NotFound desc = upgraded consensus state not found in store for height: 5: key not found",
    );
  });

  it("400 naming the parameter for a last_height that is not an integer", async () => {
    const r = await get("/core/upgrade/v1beta1/upgraded_consensus_state/abc");
    expect(r.status).to.equal(400);
    expect(r.body.code).to.equal(3);
    expect(r.body.message).to.include("last_height");
  });
});
