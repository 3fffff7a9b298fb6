import { expect } from "chai";
import { moduleAddress } from "../../../src/codec/addresses.js";
import { devAppState, fixedAccounts, TEST_CHAIN, validateModuleGenesis } from "../../helpers/moduleGenesis.js";
import type { DevGenesisContext } from "../../../src/node/modules/devGenesisContext.js";
import { NODE_MODULES } from "../../../src/node/modules/index.js";
import { oracleModule } from "../../../src/node/modules/oracle/module.js";
import { randomModule } from "../../../src/node/modules/random/module.js";
import { recordModule } from "../../../src/node/modules/record/module.js";
import { serviceModule } from "../../../src/node/modules/service/module.js";

describe("development genesis", () => {
  it("writes a genesis that every module validates", () => {
    const state = devAppState({ accounts: 10 });
    for (const module of NODE_MODULES) expect(() => validateModuleGenesis(module, state[module.name]), module.name).not.to.throw();
  });

  it("writes the real app_state keys of the modules without a state of their own", () => {
    const state = devAppState({ accounts: 10 });
    expect(state.params).to.equal(null);
    expect(state.upgrade).to.deep.equal({});
    expect(Object.keys(state.ibc)).to.deep.equal(["client_genesis", "connection_genesis", "channel_genesis"]);
  });

  it("writes a valid genesis for a chain with a single account too (stand-in addresses for the others)", () => {
    const context: DevGenesisContext = {
      chainId: TEST_CHAIN.chainId,
      prefix: "hub",
      denom: "uhub",
      genesisTime: new Date("2024-01-01T00:00:00Z"),
      accounts: fixedAccounts(1),
      consensusPublicKey: new Uint8Array(32),
      moduleAccount: (name) => moduleAddress("hub", name),
      fund: () => undefined,
      account: () => undefined,
      otherAccounts: [],
      moduleAccounts: [],
      balances: new Map(),
    };
    for (const module of [serviceModule, oracleModule, randomModule, recordModule])
      expect(() => validateModuleGenesis(module, module.devGenesis!(context)), module.name).not.to.throw();
  });
});
