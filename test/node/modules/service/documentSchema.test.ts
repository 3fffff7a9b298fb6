import { expect } from "chai";
import { documentError, MAX_COMPILED } from "../../../../src/node/modules/service/documentSchema.js";

describe("service: schemas from transactions are compiled into a bounded cache", () => {
  const schema = (i: number) => ({ type: "object", properties: { [`f${i}`]: { type: "string" } }, required: [`f${i}`] });

  it("more distinct schemas than MAX_COMPILED still validate, the first ones again after they left", () => {
    for (let i = 0; i <= MAX_COMPILED + 50; i++) expect(documentError(schema(i), "{}")).to.equal(`(root): f${i} is required`);
    for (let i = 0; i < 50; i++) {
      expect(documentError(schema(i), `{"f${i + 1}": "x"}`)).to.equal(`(root): f${i} is required`);
      expect(documentError(schema(i), `{"f${i}": "x"}`)).to.equal(undefined);
    }
  });
});
