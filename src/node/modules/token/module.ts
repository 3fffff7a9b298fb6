import { decodeBech32Address } from "../../../codec/bech32.js";
import { decFromWire, formatDec } from "../../../codec/decimal.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { DENOM_PATTERN } from "../shared/addressField.js";
import type { DevGenesisContext } from "../devGenesisContext.js";
import type { ModuleContext, NodeModule } from "../nodeModule.js";
import { DEV_TOKENS, ownerHolding } from "./devTokens.js";
import { tokenAnteCheck } from "./ante.js";
import { tokenMessages } from "./messages.js";
import { addBurnedCoin, readParams, writeParams, writeToken } from "./store.js";
import { reasonOf, tokenFieldsError, unitIntervalError } from "./validation.js";
import { fieldText } from "../../../codec/fieldText.js";
import { tokenQueries } from "./queries.js";
import { BURNED_PREFIX, SYMBOL_PREFIX, TOKEN_TYPE } from "./store.js";
import { valuesUnder } from "../shared/exportReads.js";

/** The token module (store layout in tokenStore.ts). */
export const tokenModule: NodeModule = {
  name: "token",
  genesisType: "extmod.token.GenesisState",
  queryService: "extmod.token.Query",
  messages: tokenMessages,
  anteCheck: tokenAnteCheck,

  queries: tokenQueries,

  validateGenesis(state, ctx) {
    const params = (state.params ?? {}) as ProtoMessage;
    const taxRate = unitIntervalError(decWire(params.token_tax_rate), "token tax rate");
    if (taxRate) throw new Error(`params.token_tax_rate: ${taxRate}`);
    const ratio = unitIntervalError(decWire(params.mint_token_fee_ratio), "fee ratio for minting tokens");
    if (ratio) throw new Error(`params.mint_token_fee_ratio: ${ratio}`);
    const baseFee = (params.issue_token_base_fee ?? {}) as ProtoMessage;
    validateCoin(baseFee, "params.issue_token_base_fee");

    const symbols = new Set<string>();
    const minUnits = new Set<string>();
    ((state.tokens ?? []) as ProtoMessage[]).forEach((token, i) => {
      const where = `tokens[${i}]`;
      const owner = fieldText(token.owner);
      if (owner !== "") ownerAddressOrThrow(owner, `${where}.owner`, ctx);
      const problem = tokenFieldsError(tokenFields(token));
      if (problem) throw new Error(`${where}.${problem[0]}: ${problem[1]}`);
      const symbol = String(token.symbol);
      const minUnit = String(token.min_unit);
      if (symbols.has(symbol) || minUnits.has(symbol)) throw new Error(`${where}.symbol: symbol already exists: ${symbol}: symbol already exists`);
      if (minUnits.has(minUnit) || symbols.has(minUnit)) throw new Error(`${where}.min_unit: min-unit already exists: ${minUnit}: min unit already exists`);
      symbols.add(symbol);
      minUnits.add(minUnit);
    });
    if (!symbols.has(fieldText(baseFee.denom))) {
      throw new Error(`params.issue_token_base_fee.denom: Token ${fieldText(baseFee.denom)} does not exist`);
    }
    ((state.burned_coins ?? []) as ProtoMessage[]).forEach((coin, i) => validateCoin(coin, `burned_coins[${i}]`));
  },

  async exportGenesis(ctx) {
    return {
      params: await readParams(ctx.store, ctx),
      tokens: await valuesUnder(ctx.store, SYMBOL_PREFIX, ctx, TOKEN_TYPE),
      burned_coins: await valuesUnder(ctx.store, BURNED_PREFIX, ctx, "core.base.v1beta1.Coin"),
    };
  },

  async initGenesis(state, ctx) {
    writeParams(ctx.store, (state.params ?? {}) as ProtoMessage, ctx);
    for (const token of (state.tokens ?? []) as ProtoMessage[]) {
      const owner = fieldText(token.owner);
      writeToken(ctx.store, token, owner === "" ? undefined : decodeBech32Address(owner, ctx.chain.bech32Prefix, "owner"), ctx);
    }
    for (const coin of (state.burned_coins ?? []) as ProtoMessage[]) {
      await addBurnedCoin(ctx.store, { denom: fieldText(coin.denom), amount: BigInt(fieldText(coin.amount, "0")) }, ctx);
    }
  },

  params: {
    subspace: "token",
    async read(store, ctx) {
      const params = await readParams(store, ctx);
      const baseFee = (params.issue_token_base_fee ?? {}) as ProtoMessage;
      return {
        TokenTaxRate: JSON.stringify(decFromWire(fieldText(params.token_tax_rate))),
        IssueTokenBaseFee: JSON.stringify({ denom: fieldText(baseFee.denom), amount: fieldText(baseFee.amount, "0") }),
        MintTokenFeeRatio: JSON.stringify(decFromWire(fieldText(params.mint_token_fee_ratio))),
      };
    },
  },

  devGenesis(ctx: DevGenesisContext) {
    const native = nativeToken(ctx.denom, ctx.moduleAccount("token", ["minter", "burner"]));
    const issued = DEV_TOKENS.map((token) => {
      const owner = ctx.accounts[token.owner]!.address;
      ctx.fund(owner, [{ denom: token.min_unit, amount: ownerHolding(token).toString() }]);
      return {
        symbol: token.symbol,
        name: token.name,
        scale: token.scale,
        min_unit: token.min_unit,
        initial_supply: token.initial_supply.toString(),
        max_supply: token.max_supply.toString(),
        mintable: token.mintable,
        owner,
      };
    });
    return {
      params: {
        token_tax_rate: formatDec(400_000_000_000_000_000n),
        issue_token_base_fee: { denom: native.symbol, amount: "60000" },
        mint_token_fee_ratio: formatDec(100_000_000_000_000_000n),
      },
      tokens: [native, ...issued],
      burned_coins: DEV_TOKENS.filter((t) => t.burned > 0n).map((t) => ({ denom: t.min_unit, amount: t.burned.toString() })),
    };
  },
};

/**
 * The chain's own coin as the token module lists it (irishub's SetNativeToken):
 * owned by the token module account; "uhub" → symbol "hub", scale 6.
 */
function nativeToken(baseDenom: string, owner: string) {
  const micro = /^u[a-z][a-z0-9]{2,}$/.test(baseDenom);
  const symbol = micro ? baseDenom.slice(1) : baseDenom;
  return {
    symbol,
    name: `${symbol.charAt(0).toUpperCase()}${symbol.slice(1)} staking token`,
    scale: micro ? 6 : 0,
    min_unit: baseDenom,
    initial_supply: "2000000000",
    max_supply: "10000000000",
    mintable: true,
    owner,
  };
}

function tokenFields(token: ProtoMessage) {
  return {
    symbol: fieldText(token.symbol),
    name: fieldText(token.name),
    scale: Number(token.scale ?? 0),
    min_unit: fieldText(token.min_unit),
    initial_supply: BigInt(fieldText(token.initial_supply, "0")),
    max_supply: BigInt(fieldText(token.max_supply, "0")),
  };
}

function ownerAddressOrThrow(value: string, field: string, ctx: ModuleContext): void {
  try {
    decodeBech32Address(value, ctx.chain.bech32Prefix, "owner");
  } catch (err) {
    throw new Error(`${field}: invalid owner address (${reasonOf(err)}): invalid address`);
  }
}

function decWire(value: unknown): bigint {
  const text = fieldText(value);
  return text === "" ? 0n : BigInt(text);
}

function validateCoin(coin: ProtoMessage, field: string): void {
  const denom = fieldText(coin.denom);
  if (!DENOM_PATTERN.test(denom)) throw new Error(`${field}.denom: invalid denom: ${denom}`);
  const amount = fieldText(coin.amount);
  if (!/^\d+$/.test(amount)) throw new Error(`${field}.amount: negative or malformed coin amount: ${amount}`);
}
