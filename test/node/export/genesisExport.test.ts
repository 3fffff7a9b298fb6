import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { Codec } from "../../../src/codec/codec.js";
import type { JsonValue } from "../../../src/codec/json/renderProto3.js";
import type { EmbeddedNode } from "../../../src/node/embeddedNode.js";
import { exportGenesis } from "../../../src/node/export/genesisExport.js";
import { NODE_MODULES } from "../../../src/node/modules/index.js";
import { openDevNode } from "../../helpers/devNode.js";

const codec = new Codec();

/** A module's state in one canonical text: parsed and rendered with its GenesisState type, lists sorted (an export lists in store order). */
function canonical(genesisType: string, state: unknown): string {
  if (state === null) return "null";
  const type = codec.type(genesisType);
  const sorted = (v: JsonValue): JsonValue =>
    Array.isArray(v)
      ? v.map(sorted).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))
      : v !== null && typeof v === "object"
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted(v[k]!)]),
          )
        : v;
  return JSON.stringify(sorted(codec.renderer.render(type, codec.parser.parse(type, state ?? {}))));
}

/**
 * Every module's ExportGenesis is the inverse of its InitGenesis: the export of a fresh dev chain's
 * first height (the imported genesis, before any block) is the genesis it was started from.
 */
describe("export: each module's ExportGenesis reads back what its InitGenesis wrote", function () {
  this.timeout(60_000);
  let node: EmbeddedNode;
  let home: string;

  before(async () => {
    ({ node, home } = await openDevNode());
  });
  after(() => node?.close());

  it("gives the dev genesis back, module by module, at height 1", async () => {
    const genesis = JSON.parse(fs.readFileSync(path.join(home, "config", "genesis.json"), "utf8"));
    const { doc, missing } = await exportGenesis({
      state: node.store.reader(1),
      height: 1,
      facts: node.genesis,
      chain: node.chain,
      codec,
      modules: NODE_MODULES,
    });
    expect(missing).to.deep.equal([]);
    const original = genesis.app_state;
    // the real export fills bank's supply (the dev genesis leaves it empty: InitGenesis sums the balances)
    expect((doc.app_state.bank as { supply: unknown[] }).supply.length).to.be.greaterThan(0);
    original.bank.supply = (doc.app_state.bank as { supply: unknown }).supply;
    // the HTLCs are keyed by the hash lock's hex, which irismod writes in upper case
    original.htlc.pending_htlcs = Object.fromEntries(Object.entries(original.htlc.pending_htlcs).map(([k, v]) => [k.toUpperCase(), v]));
    const names = [...new Set(NODE_MODULES.map((m) => m.name))];
    expect(Object.keys(doc.app_state)).to.have.members(names);
    for (const name of names) {
      const genesisType = NODE_MODULES.find((m) => m.name === name)!.genesisType;
      expect(canonical(genesisType, doc.app_state[name]), name).to.equal(canonical(genesisType, original[name]));
    }
    expect(doc).to.include({ chain_id: genesis.chain_id, genesis_time: genesis.genesis_time, initial_height: "2", app_hash: "" });
    // the consensus validators are staking's bonded set with its last powers, each with its moniker
    const powers = (doc.app_state.staking as { last_validator_powers: Array<{ power: string }> }).last_validator_powers.map((p) => p.power);
    expect(doc.validators.map((v) => v.power).sort()).to.deep.equal(powers.sort());
    const monikers = (original.staking.validators as Array<{ description: { moniker: string } }>).map((v) => v.description.moniker);
    for (const validator of doc.validators) expect(monikers).to.include(validator.name);
  });
});
