import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import type { KVReader, KVStore } from "../../store/kv.js";
import { utf8 } from "../../store/moduleStore.js";
import type { ModuleContext } from "../nodeModule.js";
import { decodeUInt64Value, encodeStringValue, encodeUInt64Value } from "../../store/wrapperValues.js";

/**
 * Store layout (the real keeper's keys; "/" is a literal delimiter, the owner is its bech32 text):
 *   0x01 / denom id / token id               → BaseNFT
 *   0x02 / owner / denom id / token id       → StringValue(token id)   (owner index)
 *   0x03 / denom id                          → UInt64Value(number of NFTs of the denom)
 *   0x04 / denom id                          → Denom
 *   0x05 / denom name                        → denom id
 */
const PREFIX_NFT = 0x01;
const PREFIX_OWNERS = 0x02;
const PREFIX_COLLECTION = 0x03;
const PREFIX_DENOM = 0x04;
const PREFIX_DENOM_NAME = 0x05;

export const DENOM_TYPE = "extmod.nft.Denom";
export const NFT_TYPE = "extmod.nft.BaseNFT";

const key = (prefix: number, ...parts: string[]) => utf8(`${String.fromCharCode(prefix)}/${parts.join("/")}`);

/** KeyNFT: with a denom and no token id, the prefix of the denom's NFTs (ending in "/"). */
export const nftKey = (denomId: string, tokenId: string) => key(PREFIX_NFT, denomId, tokenId);
export const denomNftsPrefix = (denomId: string) => key(PREFIX_NFT, denomId, "");
/** KeyOwner: the owner's NFTs, optionally of one denom (a prefix ending in "/"), or one NFT. */
export const ownerPrefix = (owner: string, denomId = "") => (denomId === "" ? key(PREFIX_OWNERS, owner, "") : key(PREFIX_OWNERS, owner, denomId, ""));
const ownerKey = (owner: string, denomId: string, tokenId: string) => key(PREFIX_OWNERS, owner, denomId, tokenId);
const collectionKey = (denomId: string) => key(PREFIX_COLLECTION, denomId);
export const denomKey = (denomId: string) => key(PREFIX_DENOM, denomId);
export const DENOMS_PREFIX = key(PREFIX_DENOM, "");
export const denomNameKey = (name: string) => key(PREFIX_DENOM_NAME, name);

export async function readDenom(store: KVReader, denomId: string, ctx: ModuleContext): Promise<ProtoMessage | undefined> {
  const bytes = await store.get(denomKey(denomId));
  return bytes ? ctx.codec.type(DENOM_TYPE).decode(bytes) : undefined;
}

export async function totalSupply(store: KVReader, denomId: string): Promise<bigint> {
  const bytes = await store.get(collectionKey(denomId));
  return bytes ? decodeUInt64Value(bytes) : 0n;
}

/** The number of NFTs an owner holds, of one denom or of all when denomId is empty. */
export async function supplyOfOwner(store: KVReader, owner: string, denomId: string): Promise<bigint> {
  let count = 0n;
  for await (const _entry of store.iterate(ownerPrefix(owner, denomId))) count++;
  return count;
}

/** SetDenom: the denom and its name index. */
export function writeDenom(store: KVStore, denom: ProtoMessage, ctx: ModuleContext): void {
  store.set(denomKey(String(denom.id)), ctx.codec.type(DENOM_TYPE).encode(denom).finish());
  store.set(denomNameKey(String(denom.name)), utf8(String(denom.id)));
}

/** MintNFT: the NFT, its owner index, and one more in the denom's supply. */
export async function writeNewNft(store: KVStore, denomId: string, nft: ProtoMessage, ctx: ModuleContext): Promise<void> {
  const tokenId = String(nft.id);
  store.set(nftKey(denomId, tokenId), ctx.codec.type(NFT_TYPE).encode(nft).finish());
  store.set(ownerKey(String(nft.owner), denomId, tokenId), encodeStringValue(tokenId));
  store.set(collectionKey(denomId), encodeUInt64Value((await totalSupply(store, denomId)) + 1n));
}

export async function readNft(store: KVReader, denomId: string, tokenId: string, ctx: ModuleContext): Promise<ProtoMessage | undefined> {
  const bytes = await store.get(nftKey(denomId, tokenId));
  return bytes ? ctx.codec.type(NFT_TYPE).decode(bytes) : undefined;
}

/** UpdateNFT / TransferOwner: the NFT rewritten; a new owner moves its owner index. */
export function writeNft(store: KVStore, denomId: string, nft: ProtoMessage, previousOwner: string, ctx: ModuleContext): void {
  const tokenId = String(nft.id);
  store.set(nftKey(denomId, tokenId), ctx.codec.type(NFT_TYPE).encode(nft).finish());
  if (previousOwner !== String(nft.owner)) {
    store.delete(ownerKey(previousOwner, denomId, tokenId));
    store.set(ownerKey(String(nft.owner), denomId, tokenId), encodeStringValue(tokenId));
  }
}

/** BurnNFT: the NFT and its owner index go; the supply drops by one (its key goes at zero). */
export async function deleteNft(store: KVStore, denomId: string, nft: ProtoMessage): Promise<void> {
  const tokenId = String(nft.id);
  store.delete(nftKey(denomId, tokenId));
  store.delete(ownerKey(String(nft.owner), denomId, tokenId));
  const supply = (await totalSupply(store, denomId)) - 1n;
  if (supply > 0n) store.set(collectionKey(denomId), encodeUInt64Value(supply));
  else store.delete(collectionKey(denomId));
}
