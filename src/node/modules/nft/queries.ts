import Long from "long";
import { decodeBech32Address, encodeBech32Address } from "../../../codec/bech32.js";
import { paginate, type PageRequest } from "../../abci/paginate.js";
import { invalidArgument, notFound } from "../../abci/queryError.js";
import type { ModuleContext } from "../nodeModule.js";
import { DENOMS_PREFIX, DENOM_TYPE, denomNftsPrefix, NFT_TYPE, nftKey, ownerPrefix, readDenom, supplyOfOwner, totalSupply } from "./store.js";
import { fieldText } from "../../../codec/fieldText.js";
import type { QueryHandler } from "../nodeModule.js";

const decoder = new TextDecoder();

/** The handlers of the nft Query service, by method. */
export const nftQueries: Record<string, QueryHandler> = {
  async Supply(request, ctx) {
    const denomId = fieldText(request.denom_id);
    const ownerText = fieldText(request.owner);
    if (ownerText === "" && denomId !== "") return { amount: bigToLong(await totalSupply(ctx.store, denomId)) };
    const owner = canonicalOwner(ownerText, ctx);
    return { amount: bigToLong(await supplyOfOwner(ctx.store, owner, denomId)) };
  },
  async Owner(request, ctx) {
    const denomId = fieldText(request.denom_id);
    const owner = canonicalOwner(fieldText(request.owner), ctx);
    const page = await paginate(ctx.store, ownerPrefix(owner, denomId), request.pagination as PageRequest | undefined, (key) => {
      const rest = decoder.decode(key);
      if (denomId !== "") return [denomId, rest] as const;
      const slash = rest.indexOf("/");
      return [rest.slice(0, slash), rest.slice(slash + 1)] as const;
    });
    // The page's token ids grouped by denom, in the order the denoms first appear.
    const collections = new Map<string, string[]>();
    for (const [denom, tokenId] of page.items) collections.set(denom, [...(collections.get(denom) ?? []), tokenId]);
    const id_collections = [...collections].map(([denom_id, token_ids]) => ({ denom_id, token_ids }));
    return { owner: { address: owner, id_collections }, pagination: page.pagination };
  },
  async Collection(request, ctx) {
    const denomId = fieldText(request.denom_id);
    const denom = await readDenom(ctx.store, denomId, ctx);
    if (!denom) throw notFound(`denomID ${denomId} not existed : invalid denom`);
    const nftType = ctx.codec.type(NFT_TYPE);
    const page = await paginate(ctx.store, denomNftsPrefix(denomId), request.pagination as PageRequest | undefined, (_key, value) => nftType.decode(value));
    return { collection: { denom, nfts: page.items }, pagination: page.pagination };
  },
  async Denom(request, ctx) {
    const denomId = fieldText(request.denom_id);
    const denom = await readDenom(ctx.store, denomId, ctx);
    if (!denom) throw notFound(`denom ID ${denomId} not exists: invalid denom`);
    return { denom };
  },
  async Denoms(request, ctx) {
    const denomType = ctx.codec.type(DENOM_TYPE);
    const page = await paginate(ctx.store, DENOMS_PREFIX, request.pagination as PageRequest | undefined, (_key, value) => denomType.decode(value));
    return { denoms: page.items, pagination: page.pagination };
  },
  async NFT(request, ctx) {
    const denomId = fieldText(request.denom_id);
    const tokenId = fieldText(request.token_id);
    const bytes = denomId !== "" && tokenId !== "" ? await ctx.store.get(nftKey(denomId, tokenId)) : undefined;
    if (!bytes) throw notFound(`invalid NFT ${tokenId} from collection ${denomId}: unknown nft`);
    return { nft: ctx.codec.type(NFT_TYPE).decode(bytes) };
  },
};

/** An owner parameter as the real keeper reads it: "invalid owner address <value>" when it is not a bech32 account address; else its canonical text. */
function canonicalOwner(value: string, ctx: ModuleContext): string {
  try {
    return encodeBech32Address(ctx.chain.bech32Prefix, decodeBech32Address(value, ctx.chain.bech32Prefix, "owner"));
  } catch {
    throw invalidArgument(`invalid owner address ${value}`);
  }
}

function bigToLong(value: bigint): Long {
  return Long.fromString(value.toString(), true);
}
