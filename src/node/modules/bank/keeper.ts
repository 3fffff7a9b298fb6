import { decodeBech32Address } from "../../../codec/bech32.js";
import { sdkError } from "../../abci/txError.js";
import type { KVReader, KVStore } from "../../store/kv.js";
import type { ExecContext } from "../nodeModule.js";
import { balanceKey, balancesPrefix, SUPPLY_KEY } from "./keys.js";
import { decodeCoin, decodeSupply, encodeCoin, encodeSupply } from "./coinValues.js";
import { createAccount, getAccount } from "../auth/keeper.js";

/** A coin amount as the node computes with it. */
export interface Coin {
  denom: string;
  amount: bigint;
}

/** "5uhub,3ugold" in the real system's Coins.String() form (sorted by denom). */
export function formatCoins(coins: Coin[]): string {
  return [...coins]
    .sort((a, b) => (a.denom < b.denom ? -1 : 1))
    .map((c) => `${c.amount}${c.denom}`)
    .join(",");
}

export function coinsFromProto(coins: unknown): Coin[] {
  return ((coins ?? []) as Array<{ denom: string; amount: string }>).map((c) => ({ denom: c.denom, amount: BigInt(c.amount || "0") }));
}

export function coinsToProto(coins: Coin[]): Array<{ denom: string; amount: string }> {
  return coins.map((c) => ({ denom: c.denom, amount: c.amount.toString() }));
}

export async function getBalance(bank: KVReader, address: Uint8Array, denom: string): Promise<bigint> {
  const value = await bank.get(balanceKey(address, denom));
  return value ? decodeCoin(value).amount : 0n;
}

export async function getAllBalances(bank: KVReader, address: Uint8Array): Promise<Coin[]> {
  const coins: Coin[] = [];
  for await (const [, value] of bank.iterate(balancesPrefix(address))) coins.push(decodeCoin(value));
  return coins;
}

function setBalance(bank: KVStore, address: Uint8Array, denom: string, amount: bigint): void {
  // v0.41 keeps a zero balance as a Coin of "0"; here it is deleted, as from v0.43 on, so that
  // AllBalances answers no zero coins (as the tests of this node have always expected)
  const key = balanceKey(address, denom);
  if (amount === 0n) bank.delete(key);
  else bank.set(key, encodeCoin({ denom, amount }));
}

/** Takes coins from an account; "<have> is smaller than <need>: insufficient funds" when it lacks them. */
export async function subtractCoins(bank: KVStore, address: Uint8Array, coins: Coin[]): Promise<void> {
  for (const coin of coins) {
    const have = await getBalance(bank, address, coin.denom);
    if (have < coin.amount) throw sdkError("insufficientFunds", `${have}${coin.denom} is smaller than ${coin.amount}${coin.denom}`);
    setBalance(bank, address, coin.denom, have - coin.amount);
  }
}

export async function addCoins(bank: KVStore, address: Uint8Array, coins: Coin[]): Promise<void> {
  for (const coin of coins) setBalance(bank, address, coin.denom, (await getBalance(bank, address, coin.denom)) + coin.amount);
}

/**
 * Moves coins between accounts and emits the real events:
 * transfer{recipient, sender, amount} and message{sender}.
 */
export async function sendCoins(ctx: ExecContext, from: string, to: string, coins: Coin[]): Promise<void> {
  const bank = ctx.storeOf("bank");
  const prefix = ctx.chain.bech32Prefix;
  const recipient = decodeBech32Address(to, prefix, "to_address");
  await subtractCoins(bank, decodeBech32Address(from, prefix, "from_address"), coins);
  await addCoins(bank, recipient, coins);
  // a transfer to a new address creates its account, as the real bank keeper does
  const auth = ctx.storeOf("auth");
  if (!(await getAccount(auth, ctx.codec, recipient))) await createAccount(auth, ctx.codec, prefix, recipient);
  ctx.emit({
    type: "transfer",
    attributes: [
      { key: "recipient", value: to },
      { key: "sender", value: from },
      { key: "amount", value: formatCoins(coins) },
    ],
  });
  ctx.emit({ type: "message", attributes: [{ key: "sender", value: from }] });
}

/** Every denom's total supply, sorted by denom (v0.41's one Supply entry). */
export async function getTotalSupply(bank: KVReader): Promise<Coin[]> {
  return decodeSupply(await bank.get(SUPPLY_KEY));
}

/** The total supply of a denom; undefined when the chain has none of it. */
export async function findSupply(bank: KVReader, denom: string): Promise<bigint | undefined> {
  return (await getTotalSupply(bank)).find((coin) => coin.denom === denom)?.amount;
}

/** The total supply of a denom. */
export async function getSupply(bank: KVReader, denom: string): Promise<bigint> {
  return (await findSupply(bank, denom)) ?? 0n;
}

/** Writes the whole supply, leaving out denoms whose total is zero. */
export function setTotalSupply(bank: KVStore, coins: Coin[]): void {
  bank.set(SUPPLY_KEY, encodeSupply(coins.filter((coin) => coin.amount !== 0n)));
}

async function changeSupply(bank: KVStore, coin: Coin, delta: bigint): Promise<void> {
  const total = await getTotalSupply(bank);
  const entry = total.find((c) => c.denom === coin.denom);
  const next = (entry?.amount ?? 0n) + delta;
  if (next < 0n) throw sdkError("insufficientFunds", `supply of ${coin.denom} would become negative`);
  if (entry) entry.amount = next;
  else total.push({ denom: coin.denom, amount: next });
  setTotalSupply(bank, total);
}

/** Creates coins in an account (module minting) and raises the supply. */
export async function mintCoins(ctx: ExecContext, to: string, coins: Coin[]): Promise<void> {
  const bank = ctx.storeOf("bank");
  await addCoins(bank, decodeBech32Address(to, ctx.chain.bech32Prefix, "address"), coins);
  for (const coin of coins) await changeSupply(bank, coin, coin.amount);
}

/** Destroys coins held by an account and lowers the supply. */
export async function burnCoins(ctx: ExecContext, from: string, coins: Coin[]): Promise<void> {
  const bank = ctx.storeOf("bank");
  await subtractCoins(bank, decodeBech32Address(from, ctx.chain.bech32Prefix, "address"), coins);
  for (const coin of coins) await changeSupply(bank, coin, -coin.amount);
}
