import { expect } from "chai";
import { devAppState, validateModuleGenesis, type GenesisJson } from "../../../helpers/moduleGenesis.js";
import { tokenModule } from "../../../../src/node/modules/token/module.js";

const appState = () => devAppState({ accounts: 10 });
const validate = validateModuleGenesis;
type Json = GenesisJson;

function totalOf(state: Json, denom: string): bigint {
  let total = 0n;
  for (const balance of state.bank.balances as Json[]) for (const coin of balance.coins as Json[]) if (coin.denom === denom) total += BigInt(coin.amount);
  return total;
}

describe("token genesis", () => {
  it("funds every issued token's supply, less the burned coins, and the pool's liquidity", () => {
    const state = appState();
    expect(totalOf(state, "ucat")).to.equal(1_000_000n * 10n ** 6n - 250_000_000n);
    expect(totalOf(state, "mdog")).to.equal(500_000n * 10n ** 3n);
    expect(totalOf(state, "swap/ucat")).to.equal(1_000_000_000n);
  });

  describe("token", () => {
    const expectError = (edit: (token: Json) => void, message: string) => {
      const state = appState().token;
      edit(state);
      expect(() => validate(tokenModule, state)).to.throw(message);
    };

    it("rejects an invalid symbol, min unit, scale or supply with the field and the real message", () => {
      expectError((s) => (s.tokens[1].symbol = "Cat"), "tokens[1].symbol: invalid symbol: Cat, only accepts english lowercase letters and numbers");
      expectError((s) => (s.tokens[1].symbol = "swapcat"), "tokens[1].symbol: invalid token: swapcat, can not begin with keyword: (peg|ibc|swap)");
      expectError((s) => (s.tokens[1].min_unit = "u"), "tokens[1].min_unit: invalid minUnit: u,");
      expectError((s) => (s.tokens[1].scale = 10), "tokens[1].scale: invalid token scale 10, only accepts value [0, 9]");
      expectError((s) => (s.tokens[1].initial_supply = "100000000001"), "tokens[1].initial_supply: invalid token initial supply 100000000001");
      expectError((s) => (s.tokens[2].max_supply = "1"), "tokens[2].max_supply: invalid token max supply 1, only accepts value [500000,");
      expectError((s) => (s.tokens[1].name = ""), "tokens[1].name: invalid token name , only accepts length (0, 32]");
      expectError((s) => (s.tokens[1].owner = "cosmos1xyz"), "tokens[1].owner: invalid owner address");
    });

    it("rejects a symbol or min unit used twice", () => {
      expectError((s) => (s.tokens[2].min_unit = "ucat"), "tokens[2].min_unit: min-unit already exists: ucat");
      expectError((s) => (s.tokens[2].symbol = "ucat"), "tokens[2].symbol: symbol already exists: ucat");
    });

    it("rejects params out of range and a base fee in an unknown token", () => {
      expectError((s) => (s.params.token_tax_rate = "1.5"), "params.token_tax_rate: token tax rate [1.500000000000000000] should be between [0, 1]");
      expectError(
        (s) => (s.params.mint_token_fee_ratio = "-0.1"),
        "params.mint_token_fee_ratio: fee ratio for minting tokens [-0.100000000000000000] should be between [0, 1]",
      );
      expectError((s) => (s.params.issue_token_base_fee.denom = "gold"), "params.issue_token_base_fee.denom: Token gold does not exist");
      expectError((s) => (s.burned_coins[0].denom = "1x"), "burned_coins[0].denom: invalid denom: 1x");
    });
  });
});
