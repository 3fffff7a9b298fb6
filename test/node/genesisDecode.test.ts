import { expect } from "chai";
import { Codec } from "../../src/codec/codec.js";
import { DECODE_STEP, decodeInSteps } from "../../src/node/genesisDecode.js";
import { bankModule } from "../../src/node/modules/bank/module.js";
import { fixedAddress } from "../helpers/moduleGenesis.js";

const codec = new Codec();
const type = codec.type(bankModule.genesisType);
const balances = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ address: fixedAddress((i % 250) + 1), coins: [{ denom: "uhub", amount: String(i + 1) }] }));

async function errorOf(run: () => unknown): Promise<string | undefined> {
  try {
    await run();
  } catch (err) {
    return (err as Error).message;
  }
  return undefined;
}

describe("genesis decoded in steps: long lists entry by entry", () => {
  it("decodes a state with a list longer than a step exactly as the parser does whole", async () => {
    const json = { params: { default_send_enabled: true }, balances: balances(DECODE_STEP + 50), supply: [{ denom: "uhub", amount: "5" }], denom_metadata: [] };
    const counted: number[] = [];
    const state = await decodeInSteps(codec.parser, type, json, (n) => counted.push(n));
    expect(state).to.deep.equal(codec.parser.parse(type, json));
    expect(counted.reduce((a, b) => a + b, 0)).to.equal(DECODE_STEP + 51);
  });

  it("names the field of a bad entry deep in a long list as the parser does", async () => {
    const list = balances(DECODE_STEP + 50);
    list[DECODE_STEP + 20]!.coins[0]!.amount = "12x";
    const json = { balances: list };
    const whole = await errorOf(() => codec.parser.parse(type, json));
    expect(whole).to.equal(`balances[${DECODE_STEP + 20}].coins[0].amount: "12x" is not an integer`);
    expect(await errorOf(() => decodeInSteps(codec.parser, type, json, () => undefined))).to.equal(whole);
  });
});
