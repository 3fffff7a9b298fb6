import { decodeBech32Address, encodeBech32Address } from "../../../codec/bech32.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import type { DevGenesisContext } from "../devGenesisContext.js";
import type { ModuleContext, NodeModule } from "../nodeModule.js";
import { writeDenom, writeNewNft } from "./store.js";
import { denomIdError, tokenIdError, tokenUriError } from "./validation.js";
import { nftMessages } from "./messages.js";
import { fieldText } from "../../../codec/fieldText.js";
import { nftQueries } from "./queries.js";
import { DENOM_TYPE, DENOMS_PREFIX, NFT_TYPE, denomNftsPrefix } from "./store.js";
import { valuesUnder } from "../shared/exportReads.js";

/** The nft module (store layout in nftStore.ts). */
export const nftModule: NodeModule = {
  name: "nft",
  genesisType: "extmod.nft.GenesisState",
  queryService: "extmod.nft.Query",
  messages: nftMessages,

  queries: nftQueries,

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

  /** irismod's ExportGenesis: each denom as a collection with its NFTs. */
  async exportGenesis(ctx) {
    const collections: ProtoMessage[] = [];
    for (const denom of await valuesUnder(ctx.store, DENOMS_PREFIX, ctx, DENOM_TYPE)) {
      collections.push({ denom, nfts: await valuesUnder(ctx.store, denomNftsPrefix(String(denom.id)), ctx, NFT_TYPE) });
    }
    return { collections };
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

function addressOrThrow(value: string, field: string, ctx: ModuleContext): void {
  try {
    decodeBech32Address(value, ctx.chain.bech32Prefix, field);
  } catch (err) {
    throw new Error(`${field}: ${(err as Error).message}: invalid address`);
  }
}
