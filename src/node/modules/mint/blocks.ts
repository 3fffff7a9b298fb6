import { moduleAddress, moduleAddressBytes } from "../../../codec/addresses.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { getAccount, nextAccountNumber, setAccount } from "../auth/keeper.js";
import { mintCoins, sendCoins } from "../bank/keeper.js";
import type { ExecContext } from "../nodeModule.js";
import { decFromWire, decMulInt, decTruncateInt } from "../shared/decMath.js";
import { toTimestamp } from "../shared/genesisChecks.js";
import { goTimeString, timestampDate } from "../shared/goTime.js";
import { fieldText } from "../../../codec/fieldText.js";
import { MODULE_PARAMS_KEY } from "../shared/paramsKey.js";

export const MINT_PARAMS_KEY = MODULE_PARAMS_KEY;
export const MINTER_KEY = Uint8Array.of(0x02);
export const MINT_ACCOUNT = "mint";

/** 5-second blocks over 365.25 days, as the hub's minter counts them. */
const BLOCKS_PER_YEAR = (60n * 60n * 8766n) / 5n;

/**
 * BeginBlocker of the hub's mint module: from the second block on, each
 * block mints inflation × inflation_base ÷ blocks per year (truncated) into the
 * fee collector, and records the block time as the last update.
 */
export async function mintBeginBlock(ctx: ExecContext): Promise<void> {
  const store = ctx.storeOf("mint");
  const minterType = ctx.codec.type("hubmod.mint.Minter");
  const minterBytes = await store.get(MINTER_KEY);
  if (!minterBytes) throw new Error("Stored minter should not have been nil");
  const minter = minterType.decode(minterBytes) as unknown as ProtoMessage;
  if (ctx.height <= 1) {
    store.set(MINTER_KEY, minterType.encode({ ...minter, last_update: toTimestamp(ctx.time) }).finish());
    return;
  }
  const paramsBytes = await store.get(MINT_PARAMS_KEY);
  const params = paramsBytes ? (ctx.codec.type("hubmod.mint.Params").decode(paramsBytes) as unknown as ProtoMessage) : {};
  const provisions = decMulInt(decFromWire(fieldText(params.inflation)), BigInt(fieldText(minter.inflation_base, "0")));
  const amount = decTruncateInt(provisions / BLOCKS_PER_YEAR);
  const coins = amount > 0n ? [{ denom: String(params.mint_denom), amount }] : [];
  const prefix = ctx.chain.bech32Prefix;
  if (coins.length > 0) {
    await ensureMintAccount(ctx);
    await mintCoins(ctx, moduleAddress(prefix, MINT_ACCOUNT), coins);
  }
  await sendCoins(ctx, moduleAddress(prefix, MINT_ACCOUNT), moduleAddress(prefix, "fee_collector"), coins);
  const lastUpdate = timestampDate(minter.last_update as ProtoMessage);
  store.set(MINTER_KEY, minterType.encode({ ...minter, last_update: toTimestamp(ctx.time) }).finish());
  ctx.emit({
    type: "mint",
    attributes: [
      { key: "last_inflation_time", value: goTimeString(lastUpdate) },
      { key: "inflation_time", value: goTimeString(ctx.time) },
      { key: "mint_coin", value: amount.toString() },
    ],
  });
}

/** GetModuleAccount creates the mint module account on first use, as the real account keeper does. */
async function ensureMintAccount(ctx: ExecContext): Promise<void> {
  const auth = ctx.storeOf("auth");
  const address = moduleAddressBytes(MINT_ACCOUNT);
  if (await getAccount(auth, ctx.codec, address)) return;
  const number = await nextAccountNumber(auth);
  const base = { address: moduleAddress(ctx.chain.bech32Prefix, MINT_ACCOUNT), account_number: number.toString(), sequence: "0" };
  setAccount(auth, ctx.codec, address, {
    typeName: "core.auth.v1beta1.ModuleAccount",
    account: { base_account: base, name: MINT_ACCOUNT, permissions: ["minter"] },
    base,
  });
}
