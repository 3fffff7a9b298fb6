import Long from "long";
import { decodeBech32Address, encodeBech32Address } from "../../../codec/bech32.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { paginate, type PageRequest } from "../../abci/paginate.js";
import { invalidArgument, notFound } from "../../abci/queryError.js";
import type { DevGenesisContext } from "../devGenesisContext.js";
import type { ModuleContext, NodeModule } from "../nodeModule.js";
import {
  DENOMS_PREFIX,
  DENOM_TYPE,
  denomNftsPrefix,
  NFT_TYPE,
  nftKey,
  ownerPrefix,
  readDenom,
  supplyOfOwner,
  totalSupply,
  writeDenom,
  writeNewNft,
} from "./store.js";
import { denomIdError, tokenIdError, tokenUriError } from "./validation.js";
import { nftMessages } from "./messages.js";
import { fieldText } from "../../../codec/fieldText.js";

const decoder = new TextDecoder();

/** The nft module (store layout in nftStore.ts). */
export const nftModule: NodeModule = {
  name: "nft",
  genesisType: "extmod.nft.GenesisState",
  queryService: "extmod.nft.Query",
  messages: nftMessages,

  queries: {
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
  },

  validateGenesis(state, ctx) {
    const ids = new Set<string>();
    const names = new Set<string>();
    ((state.collections ?? []) as ProtoMessage[]).forEach((collection, i) => {
      const where = `collections[${i}]`;
      const denom = (collection.denom ?? {}) as ProtoMessage;
      const id = fieldText(denom.id);
      const name = fieldText(denom.name);
      const idProblem = denomIdError(id);
      if (idProblem) throw new Error(`${where}.denom.id: ${idProblem}`);
      if (name.trim() === "") throw new Error(`${where}.denom.name: denom name(${name}) can not be space: invalid denom name`);
      if (ids.has(id)) throw new Error(`${where}.denom.id: denomID ${id} has already exists: invalid denom`);
      if (names.has(name)) throw new Error(`${where}.denom.name: denomName ${name} has already exists: invalid denom`);
      ids.add(id);
      names.add(name);
      const creator = fieldText(denom.creator);
      if (creator !== "") addressOrThrow(creator, `${where}.denom.creator`, ctx);
      const tokenIds = new Set<string>();
      ((collection.nfts ?? []) as ProtoMessage[]).forEach((nft, j) => {
        const at = `${where}.nfts[${j}]`;
        const tokenId = fieldText(nft.id);
        const problem = tokenIdError(tokenId);
        if (problem) throw new Error(`${at}.id: ${problem}`);
        if (tokenIds.has(tokenId)) throw new Error(`${at}.id: NFT ${tokenId} already exists in collection ${id}: nft already exists`);
        tokenIds.add(tokenId);
        const uriProblem = tokenUriError(fieldText(nft.uri));
        if (uriProblem) throw new Error(`${at}.uri: ${uriProblem}`);
        const owner = fieldText(nft.owner);
        if (owner === "") throw new Error(`${at}.owner: missing owner: invalid address`);
        addressOrThrow(owner, `${at}.owner`, ctx);
      });
    });
  },

  async initGenesis(state, ctx) {
    for (const collection of (state.collections ?? []) as ProtoMessage[]) {
      const denom = (collection.denom ?? {}) as ProtoMessage;
      writeDenom(ctx.store, denom, ctx);
      for (const nft of (collection.nfts ?? []) as ProtoMessage[]) {
        const owner = encodeBech32Address(ctx.chain.bech32Prefix, decodeBech32Address(String(nft.owner), ctx.chain.bech32Prefix, "owner"));
        await writeNewNft(ctx.store, String(denom.id), { ...nft, owner }, ctx);
      }
    }
  },

  devGenesis(ctx: DevGenesisContext) {
    const [first, second] = [ctx.accounts[0]!.address, ctx.accounts[1]!.address];
    const kitty = (n: number, name: string, color: string, owner: string) => ({
      id: `kitty${n}`,
      name,
      uri: `https://example.org/devkitties/${n}.json`,
      data: JSON.stringify({ color }),
      owner,
    });
    return {
      collections: [
        {
          denom: { id: "devbadges", name: "Dev Badges", schema: "", creator: second },
          nfts: [],
        },
        {
          denom: { id: "devkitties", name: "Dev Kitties", schema: KITTY_SCHEMA, creator: first },
          nfts: [kitty(1, "Ginger", "orange", first), kitty(2, "Smokey", "grey", second), kitty(3, "Snowball", "white", first)],
        },
      ],
    };
  },
};

const KITTY_SCHEMA = JSON.stringify({ type: "object", properties: { color: { type: "string" } } });

/** An owner parameter as the real keeper reads it: "invalid owner address <value>" when it is not a bech32 account address; else its canonical text. */
function canonicalOwner(value: string, ctx: ModuleContext): string {
  try {
    return encodeBech32Address(ctx.chain.bech32Prefix, decodeBech32Address(value, ctx.chain.bech32Prefix, "owner"));
  } catch {
    throw invalidArgument(`invalid owner address ${value}`);
  }
}

function addressOrThrow(value: string, field: string, ctx: ModuleContext): void {
  try {
    decodeBech32Address(value, ctx.chain.bech32Prefix, field);
  } catch (err) {
    throw new Error(`${field}: ${(err as Error).message}: invalid address`);
  }
}

function bigToLong(value: bigint): Long {
  return Long.fromString(value.toString(), true);
}
