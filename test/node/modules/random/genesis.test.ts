import { expect } from "chai";
import { devAppState, validateModuleGenesis, type GenesisJson } from "../../../helpers/moduleGenesis.js";
import { randomModule } from "../../../../src/node/modules/random/module.js";

const appState = () => devAppState({ accounts: 10 });
const validate = validateModuleGenesis;
type Json = GenesisJson;

describe("random genesis", () => {
  it("random: rejects a bad generation height, a request due before it was made, or a malformed random", () => {
    const expectError = (edit: (state: Json) => void, message: string) => {
      const state = appState().random;
      edit(state);
      expect(() => validate(randomModule, state)).to.throw(message);
    };
    expectError(
      (s) => (s.pending_random_requests["0"] = s.pending_random_requests["101"]),
      "pending_random_requests[0]: the key is the height at which the random number is generated",
    );
    expectError(
      (s) => (s.pending_random_requests["101"].requests[0].height = "101"),
      "pending_random_requests[101].requests[0].height: the request height must be before the generation height 101",
    );
    expectError((s) => (s.pending_random_requests["201"] = s.pending_random_requests["101"]), "duplicate request");
    expectError((s) => (Object.values(s.randoms as Json)[0].value = "lots"), ".value: a random number is decimal text");
  });
});
