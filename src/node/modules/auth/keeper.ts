import type { Codec } from "../../../codec/codec.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { encodeBech32Address } from "../../../codec/bech32.js";
import type { KVReader, KVStore } from "../../store/kv.js";
import type { QueryContext } from "../nodeModule.js";
import { utf8 } from "../../store/moduleStore.js";
import { concatBytes } from "../../store/keyEncoding.js";
import { neutralTypeUrl, typeUrlOf } from "../../../codec/typeRegistry.js";
import { decodeUInt64Value, encodeUInt64Value } from "../../store/wrapperValues.js";
import { MODULE_PARAMS_KEY } from "../shared/paramsKey.js";

export const ACCOUNT_PREFIX = Uint8Array.of(0x01);
export const accountKey = (address: Uint8Array) => concatBytes(ACCOUNT_PREFIX, address);

/** Next free account number, a UInt64Value (v0.41 x/auth/types/keys.go GlobalAccountNumberKey). */
export const NEXT_ACCOUNT_NUMBER_KEY = utf8("globalAccountNumber");

/** An account as stored (an Any of BaseAccount, ModuleAccount or a vesting account), with its BaseAccount part. */
export interface StoredAccount {
  /** The neutral full name of the account type ("core.auth.v1beta1.BaseAccount"). */
  typeName: string;
  account: ProtoMessage;
  /** The BaseAccount inside: address, pub_key, account_number, sequence. Changes here are written by setAccount. */
  base: ProtoMessage;
}

export async function getAccount(auth: KVReader, codec: Codec, address: Uint8Array): Promise<StoredAccount | undefined> {
  const bytes = await auth.get(accountKey(address));
  if (!bytes) return undefined;
  const any = codec.type("google.protobuf.Any").decode(bytes) as unknown as { type_url: string; value: Uint8Array };
  const typeName = neutralTypeUrl(any.type_url).slice(1);
  const account = codec.type(typeName).toObject(codec.type(typeName).decode(any.value), { longs: String });
  return { typeName, account, base: baseAccountOf(account) };
}

export function setAccount(auth: KVStore, codec: Codec, address: Uint8Array, stored: StoredAccount): void {
  const type = codec.type(stored.typeName);
  const any = { type_url: typeUrlOf(type), value: type.encode(type.fromObject(stored.account)).finish() };
  auth.set(accountKey(address), codec.type("google.protobuf.Any").encode(any).finish());
}

/** Creates a BaseAccount with the next account number (NewAccountWithAddress + SetAccount). */
export async function createAccount(auth: KVStore, codec: Codec, prefix: string, address: Uint8Array): Promise<StoredAccount> {
  const number = await nextAccountNumber(auth);
  const base = { address: encodeBech32Address(prefix, address), account_number: number.toString(), sequence: "0" };
  const stored = { typeName: "core.auth.v1beta1.BaseAccount", account: base, base };
  setAccount(auth, codec, address, stored);
  return stored;
}

/** Takes the next free account number (v0.41 GetNextAccountNumber). */
export async function nextAccountNumber(auth: KVStore): Promise<bigint> {
  const numberBytes = await auth.get(NEXT_ACCOUNT_NUMBER_KEY);
  const number = numberBytes ? decodeUInt64Value(numberBytes) : 0n;
  auth.set(NEXT_ACCOUNT_NUMBER_KEY, encodeUInt64Value(number + 1n));
  return number;
}

/** The BaseAccount part of any account type (nested under base_account / base_vesting_account). */
export function baseAccountOf(account: ProtoMessage): ProtoMessage {
  if (account.base_vesting_account) return baseAccountOf(account.base_vesting_account as ProtoMessage);
  if (account.base_account) return account.base_account as ProtoMessage;
  return account;
}

/**
 * Store layout (v0.41 x/auth/types/keys.go): 0x01 | address bytes → Any of the account;
 * "globalAccountNumber" → UInt64Value. Parameters: MODULE_PARAMS_KEY (v0.41: the params store).
 */
export const PARAMS_KEY = MODULE_PARAMS_KEY;

export async function readParams(ctx: QueryContext): Promise<ProtoMessage> {
  const bytes = await ctx.store.get(PARAMS_KEY);
  return bytes ? ctx.codec.type("core.auth.v1beta1.Params").decode(bytes) : {};
}
