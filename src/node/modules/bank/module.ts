import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { decodeBech32Address } from "../../../codec/bech32.js";
import { concatBytes } from "../../store/keyEncoding.js";
import { utf8 } from "../../store/moduleStore.js";
import { BALANCES_PREFIX, METADATA_PREFIX, PARAMS_KEY, SUPPLY_KEY, balanceKey } from "./keys.js";
import { decodeCoin, decodeSupply, encodeCoin } from "./coinValues.js";
import { setTotalSupply } from "./keeper.js";
import { ADDRESS_LENGTH } from "../staking/keys.js";
import { decodedAt, entriesUnder, valuesUnder } from "../shared/exportReads.js";
import { encodeBech32Address } from "../../../codec/bech32.js";
import { DENOM_PATTERN } from "../shared/addressField.js";
import type { ExecContext, ModuleContext, NodeModule } from "../nodeModule.js";
import type { KVStore } from "../../store/kv.js";
import { GENESIS_STEP, runSteps } from "../shared/genesisSteps.js";
import type { DevGenesisContext } from "../devGenesisContext.js";
import { aminoBool, aminoJson } from "../shared/aminoParams.js";
import { bankMessages } from "./messages.js";
import { bankQueries } from "./queries.js";
import { fieldText } from "../../../codec/fieldText.js";

function* bankChecks(state: ProtoMessage, ctx: ModuleContext): Generator<void> {
  const totals = new Map<string, bigint>();
  const seen = new Set<string>();
  for (const [i, balance] of ((state.balances ?? []) as ProtoMessage[]).entries()) {
    checkedBalance(balance, i, ctx, seen, totals);
    if (i % GENESIS_STEP === GENESIS_STEP - 1) yield;
  }
  lastChecks(state, totals);
}

/** Genesis balance number `i`, checked (its address, no address twice, its coins) and added to `totals`: its address bytes and coins. */
function checkedBalance(
  balance: ProtoMessage,
  i: number,
  ctx: ModuleContext,
  seen: Set<string>,
  totals: Map<string, bigint>,
): { address: Uint8Array; coins: Map<string, bigint> } {
  const text = fieldText(balance.address);
  const address = decodeBech32Address(text, ctx.chain.bech32Prefix, `balances[${i}].address`);
  if (seen.has(text)) throw new Error(`balances[${i}].address: duplicate balance entry for ${text}`);
  seen.add(text);
  const coins = coinsOf(balance.coins, `balances[${i}].coins`);
  for (const [denom, amount] of coins) totals.set(denom, (totals.get(denom) ?? 0n) + amount);
  return { address, coins };
}

/** The checks after the balances': the supply (when given) is their sum, the metadata's denoms. */
function lastChecks(state: ProtoMessage, totals: Map<string, bigint>): void {
  const supply = coinsOf(state.supply, "supply");
  if (supply.size > 0) {
    const expected = formatCoins(totals);
    const got = formatCoins(supply);
    if (expected !== got) throw new Error(`supply: genesis supply is incorrect, expected ${expected}, got ${got}`);
  }
  ((state.denom_metadata ?? []) as ProtoMessage[]).forEach((meta, i) => {
    if (!DENOM_PATTERN.test(fieldText(meta.base))) throw new Error(`denom_metadata[${i}].base: invalid denom "${fieldText(meta.base)}"`);
  });
}

/** InitGenesis's writes: each balance's coins; then the parameters, the supply (the balances' sum) and the metadata. */
function writeBalance(store: KVStore, address: Uint8Array, coins: Map<string, bigint>): void {
  for (const [denom, amount] of coins) store.set(balanceKey(address, denom), encodeCoin({ denom, amount }));
}

function writeTheRest(state: ProtoMessage, ctx: ExecContext, totals: Map<string, bigint>): void {
  const { store } = ctx;
  store.set(
    PARAMS_KEY,
    ctx.codec
      .type("core.bank.v1beta1.Params")
      .encode(state.params ?? {})
      .finish(),
  );
  setTotalSupply(
    store,
    [...totals].map(([denom, amount]) => ({ denom, amount })),
  );
  const metadata = ctx.codec.type("core.bank.v1beta1.Metadata");
  for (const meta of (state.denom_metadata ?? []) as ProtoMessage[]) {
    store.set(concatBytes(METADATA_PREFIX, utf8(String(meta.base))), metadata.encode(meta).finish());
  }
}

export const bankModule: NodeModule = {
  name: "bank",
  genesisType: "core.bank.v1beta1.GenesisState",
  queryService: "core.bank.v1beta1.Query",

  queries: bankQueries,

  messages: bankMessages,

  validateGenesis(state, ctx) {
    runSteps(bankChecks(state, ctx));
  },
  genesisValidationSteps: bankChecks,

  async exportGenesis(ctx) {
    // balances: "balances" | address (20 bytes) | denom → Coin; grouped by address in key order, and summed
    // by denom (GetAccountsBalances' Coins.Add): a longer address's key reads as its first 20 bytes, as in v0.41
    const balances = new Map<string, Map<string, bigint>>();
    for (const [key, value] of await entriesUnder(ctx.store, BALANCES_PREFIX)) {
      const coin = decodeCoin(value);
      if (coin.amount === 0n) continue;
      const address = encodeBech32Address(ctx.chain.bech32Prefix, key.subarray(0, ADDRESS_LENGTH));
      const coins = balances.get(address) ?? new Map<string, bigint>();
      coins.set(coin.denom, (coins.get(coin.denom) ?? 0n) + coin.amount);
      balances.set(address, coins);
    }
    const supply = decodeSupply(await ctx.store.get(SUPPLY_KEY));
    return {
      params: await decodedAt(ctx.store, PARAMS_KEY, ctx, "core.bank.v1beta1.Params"),
      balances: [...balances].map(([address, coins]) => ({
        address,
        coins: [...coins].sort(([a], [b]) => (a < b ? -1 : 1)).map(([denom, amount]) => ({ denom, amount: amount.toString() })),
      })),
      supply: supply.filter((coin) => coin.amount !== 0n).map((coin) => ({ denom: coin.denom, amount: coin.amount.toString() })),
      denom_metadata: await valuesUnder(ctx.store, METADATA_PREFIX, ctx, "core.bank.v1beta1.Metadata"),
    };
  },

  async initGenesis(state, ctx) {
    const totals = new Map<string, bigint>();
    for (const balance of (state.balances ?? []) as ProtoMessage[]) {
      const coins = coinsOf(balance.coins, "coins");
      writeBalance(ctx.store, decodeBech32Address(String(balance.address), ctx.chain.bech32Prefix, "address"), coins);
      for (const [denom, amount] of coins) totals.set(denom, (totals.get(denom) ?? 0n) + amount);
    }
    writeTheRest(state, ctx, totals);
  },

  genesisImport(ctx) {
    const totals = new Map<string, bigint>();
    const seen = new Set<string>();
    const each = (balances: ProtoMessage[], first: number) =>
      balances.forEach((balance, i) => {
        const { address, coins } = checkedBalance(balance, first + i, ctx, seen, totals);
        writeBalance(ctx.store, address, coins);
      });
    return {
      lists: ["balances"],
      entries: (_list, balances, first) => each(balances, first),
      end(state) {
        each((state.balances ?? []) as ProtoMessage[], 0);
        lastChecks(state, totals);
        writeTheRest(state, ctx, totals);
      },
    };
  },

  params: {
    subspace: "bank",
    async read(store, ctx) {
      const bytes = await store.get(PARAMS_KEY);
      const params = bytes ? (ctx.codec.type("core.bank.v1beta1.Params").decode(bytes) as unknown as ProtoMessage) : {};
      // amino omits the empty fields of each entry (omitempty)
      const sendEnabled = ((params.send_enabled ?? []) as ProtoMessage[]).map((entry) => ({
        ...(entry.denom ? { denom: entry.denom } : {}),
        ...(entry.enabled ? { enabled: true } : {}),
      }));
      return { SendEnabled: aminoJson(sendEnabled), DefaultSendEnabled: aminoBool(params.default_send_enabled) };
    },
  },

  devGenesis(ctx: DevGenesisContext) {
    ctx.moduleAccount("fee_collector", []);
    ctx.accounts.forEach((account, i) => {
      ctx.fund(account.address, [{ denom: ctx.denom, amount: DEV_ACCOUNT_BALANCE }]);
      // the first account also holds a few other coins, so that a balance has several pages
      if (i === 0)
        ctx.fund(
          account.address,
          EXTRA_DENOMS.map((denom) => ({ denom, amount: "1000000" })),
        );
    });
    const held = new Set([...ctx.balances.values()].flatMap((coins) => [...coins.keys()]));
    return {
      params: { send_enabled: [], default_send_enabled: true },
      balances: [...ctx.balances].map(([address, coins]) => ({
        address,
        coins: [...coins].sort(([a], [b]) => (a < b ? -1 : 1)).map(([denom, amount]) => ({ denom, amount: amount.toString() })),
      })),
      supply: [],
      // every denom the genesis creates has metadata: explorers' supply pages read it for each denom
      denom_metadata: [...held].sort().map((denom) => devMetadata(denom, ctx)),
    };
  },
};

/** Metadata of a development denom: a micro (u…) or milli (m…) unit has its display unit 10^6 or 10^3 above it. */
function devMetadata(base: string, ctx: DevGenesisContext): ProtoMessage {
  const scaled = /^([um])([a-z]{2,})$/.exec(base);
  if (!scaled)
    return { description: `A token of the ${ctx.chainId} development chain`, denom_units: [{ denom: base, exponent: 0, aliases: [] }], base, display: base };
  const [, unit, display] = scaled as unknown as [string, "u" | "m", string];
  const description = base === ctx.denom ? `The native token of ${ctx.chainId}` : `A token of the ${ctx.chainId} development chain`;
  const denomUnits =
    unit === "u"
      ? [
          { denom: base, exponent: 0, aliases: [`micro${display}`] },
          { denom: `m${display}`, exponent: 3, aliases: [`milli${display}`] },
          { denom: display, exponent: 6, aliases: [] },
        ]
      : [
          { denom: base, exponent: 0, aliases: [`milli${display}`] },
          { denom: display, exponent: 3, aliases: [] },
        ];
  return { description, denom_units: denomUnits, base, display };
}

const DEV_ACCOUNT_BALANCE = "1000000000000"; // 1,000,000 main units of a 10^6 base denom
const EXTRA_DENOMS = ["ubronze", "ugold", "usilver"];

/** Validated coins of a genesis entry: denom → amount; positive, no duplicates. */
function coinsOf(coins: unknown, field: string): Map<string, bigint> {
  const out = new Map<string, bigint>();
  ((coins ?? []) as ProtoMessage[]).forEach((coin, i) => {
    const denom = fieldText(coin.denom);
    if (!DENOM_PATTERN.test(denom)) throw new Error(`${field}[${i}].denom: invalid denom "${denom}"`);
    const amountText = fieldText(coin.amount);
    if (!/^\d+$/.test(amountText) || BigInt(amountText) === 0n) throw new Error(`${field}[${i}].amount: must be a positive integer, got "${amountText}"`);
    if (out.has(denom)) throw new Error(`${field}[${i}].denom: duplicate denom ${denom}`);
    out.set(denom, BigInt(amountText));
  });
  return out;
}

function formatCoins(coins: Map<string, bigint>): string {
  return [...coins]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([denom, amount]) => `${amount}${denom}`)
    .join(",");
}
