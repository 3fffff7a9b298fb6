import protobuf from "protobufjs";
import { profileTypeUrl } from "../../../codec/typeRegistry.js";

/**
 * The stored values of x/bank v0.41: a balance is a Coin (`MarshalBinaryBare`), the supply one
 * Any of Supply{total} (`MarshalInterface`). Written by hand like the wrapper values: the keeper
 * functions that read them are called without a codec.
 */
export interface StoredCoin {
  denom: string;
  amount: bigint;
}

function writeCoin(writer: protobuf.Writer, coin: StoredCoin): protobuf.Writer {
  if (coin.denom !== "") writer.uint32(0x0a).string(coin.denom);
  // gogoproto writes a non-nullable custom type (sdk.Int) always, "0" included
  return writer.uint32(0x12).string(coin.amount.toString());
}

export function encodeCoin(coin: StoredCoin): Uint8Array {
  return writeCoin(protobuf.Writer.create(), coin).finish();
}

export function decodeCoin(bytes: Uint8Array): StoredCoin {
  const reader = protobuf.Reader.create(bytes);
  let denom = "";
  let amount = 0n;
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag === 0x0a) denom = reader.string();
    else if (tag === 0x12) amount = BigInt(reader.string() || "0");
    else reader.skipType(tag & 7);
  }
  return { denom, amount };
}

const SUPPLY_TYPE_URL = "/core.bank.v1beta1.Supply";

/** Any{type_url: Supply, value: Supply{total: coins sorted by denom}}. */
export function encodeSupply(coins: StoredCoin[]): Uint8Array {
  const supply = protobuf.Writer.create();
  for (const coin of [...coins].sort((a, b) => (a.denom < b.denom ? -1 : a.denom > b.denom ? 1 : 0))) {
    supply.uint32(0x0a).fork();
    writeCoin(supply, coin).ldelim();
  }
  const value = supply.finish();
  const any = protobuf.Writer.create().uint32(0x0a).string(profileTypeUrl(SUPPLY_TYPE_URL));
  return (value.length > 0 ? any.uint32(0x12).bytes(value) : any).finish();
}

export function decodeSupply(bytes: Uint8Array | undefined): StoredCoin[] {
  if (!bytes) return [];
  const any = protobuf.Reader.create(bytes);
  let value: Uint8Array = new Uint8Array();
  while (any.pos < any.len) {
    const tag = any.uint32();
    if (tag === 0x12) value = any.bytes();
    else any.skipType(tag & 7);
  }
  const reader = protobuf.Reader.create(value);
  const coins: StoredCoin[] = [];
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag === 0x0a) coins.push(decodeCoin(reader.bytes()));
    else reader.skipType(tag & 7);
  }
  return coins;
}
