import { expect } from "chai";
import { devAppState, validateModuleGenesis, type GenesisJson } from "../../../helpers/moduleGenesis.js";
import { evidenceModule } from "../../../../src/node/modules/evidence/module.js";
import type { NodeModule } from "../../../../src/node/modules/nodeModule.js";

const appState = () => devAppState({ accounts: 5, consensusKeyFill: 3 });
const validate = validateModuleGenesis;
type Json = GenesisJson;

/** Runs the InitGenesis of bank and then of `modules` on an empty in-memory state. */

describe("evidence genesis", () => {
  const expectError = (module: NodeModule, edit: (state: Json) => void, message: string) => {
    const state = appState()[module.name];
    edit(state);
    expect(() => validate(module, state)).to.throw(message);
  };
  it("evidence: Equivocation only, passing ValidateBasic, each once", () => {
    expectError(evidenceModule, (s) => (s.evidence[0].power = "0"), "evidence[0].power: invalid equivocation validator power: 0");
    expectError(evidenceModule, (s) => s.evidence.push({ ...s.evidence[0] }), "evidence[1]: evidence with hash");
    expectError(
      evidenceModule,
      (s) => (s.evidence[0] = { "@type": "/core.gov.v1beta1.TextProposal", title: "x" }),
      'evidence[0]: unsupported evidence type "/core.gov.v1beta1.TextProposal"',
    );
  });
});
