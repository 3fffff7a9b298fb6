import { expect } from "chai";
import { devAppState, validateModuleGenesis, type GenesisJson } from "../../helpers/moduleGenesis.js";
import { coinswapModule } from "../../../src/node/modules/coinswap/module.js";
import { htlcModule } from "../../../src/node/modules/htlc/module.js";
import { nftModule } from "../../../src/node/modules/nft/module.js";
import { tokenModule } from "../../../src/node/modules/token/module.js";

const appState = () => devAppState({ accounts: 10 });
const validate = validateModuleGenesis;
type Json = GenesisJson;

function totalOf(state: Json, denom: string): bigint {
  let total = 0n;
  for (const balance of state.bank.balances as Json[]) for (const coin of balance.coins as Json[]) if (coin.denom === denom) total += BigInt(coin.amount);
  return total;
}

describe("token, htlc, coinswap and nft genesis", () => {
  it("writes a development genesis that validates", () => {
    const state = appState();
    for (const module of [tokenModule, htlcModule, coinswapModule, nftModule]) expect(() => validate(module, state[module.name]), module.name).not.to.throw();
  });

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
      expectError((s) => (s.params.mint_token_fee_ratio = "-0.1"), "params.mint_token_fee_ratio: fee ratio for minting tokens [-0.100000000000000000] should be between [0, 1]");
      expectError((s) => (s.params.issue_token_base_fee.denom = "gold"), "params.issue_token_base_fee.denom: Token gold does not exist");
      expectError((s) => (s.burned_coins[0].denom = "1x"), "burned_coins[0].denom: invalid denom: 1x");
    });
  });

  describe("htlc", () => {
    const expectError = (edit: (htlc: Json, state: Json) => void, message: string) => {
      const state = appState().htlc;
      edit(Object.values(state.pending_htlcs)[0] as Json, state);
      expect(() => validate(htlcModule, state)).to.throw(message);
    };

    it("rejects an HTLC that is not open, or has a bad hash lock, address, amount or secret", () => {
      expectError((h) => (h.state = "HTLC_STATE_COMPLETED"), "HTLC not open");
      expectError((h, s) => (s.pending_htlcs = { abcd: h }), "pending_htlcs[abcd]: length of the hash lock must be 32 in bytes");
      expectError((h, s) => (s.pending_htlcs = { xyz: h }), "pending_htlcs[xyz]: invalid hash lock xyz");
      expectError((h) => (h.sender = "hub1bad"), ".sender: invalid sender address");
      expectError((h) => (h.amount = []), ".amount: the transferred amount must be valid");
      expectError((h) => (h.secret = "abcd"), ".secret: length of the secret must be 32 in bytes");
      expectError((h) => (h.receiver_on_other_chain = "x".repeat(129)), ".receiver_on_other_chain: length of the receiver on other chain must be between [0,128]");
    });
  });

  describe("coinswap", () => {
    it("rejects a fee outside (0, 1) and an invalid standard denom", () => {
      for (const fee of ["0", "1", "1.2"]) {
        const state = appState().coinswap;
        state.params.fee = fee;
        expect(() => validate(coinswapModule, state)).to.throw("params.fee: fee must be positive and less than 1");
      }
      const state = appState().coinswap;
      state.standard_denom = "u";
      expect(() => validate(coinswapModule, state)).to.throw("standard_denom: invalid denom: u");
    });
  });

  describe("nft", () => {
    const expectError = (edit: (collections: Json[]) => void, message: string) => {
      const state = appState().nft;
      edit(state.collections);
      expect(() => validate(nftModule, state)).to.throw(message);
    };

    it("rejects bad or repeated ids, names and owners", () => {
      expectError((c) => (c[1].denom.id = "Dev"), "collections[1].denom.id: the denom(Dev) only accepts alphanumeric characters");
      expectError((c) => (c[1].denom.id = "devbadges"), "collections[1].denom.id: denomID devbadges has already exists");
      expectError((c) => (c[1].denom.name = "Dev Badges"), "collections[1].denom.name: denomName Dev Badges has already exists");
      expectError((c) => (c[1].denom.name = "  "), "collections[1].denom.name: denom name(  ) can not be space");
      expectError((c) => (c[1].nfts[1].id = "kitty1"), "collections[1].nfts[1].id: NFT kitty1 already exists in collection devkitties");
      expectError((c) => (c[1].nfts[0].id = "k1"), "collections[1].nfts[0].id: the length of nft id(k1) only accepts value [3, 64]");
      expectError((c) => (c[1].nfts[0].owner = ""), "collections[1].nfts[0].owner: missing owner");
      expectError((c) => (c[1].nfts[0].uri = "x".repeat(257)), "collections[1].nfts[0].uri: the length of nft uri");
    });
  });
});
