import { fieldText } from "../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import type { ExecContext, MsgRoute } from "../nodeModule.js";
import { checkAccountField } from "../shared/msgAddresses.js";
import { nftError, nftErrorFromText } from "./errors.js";
import { deleteNft, denomKey, denomNameKey, readDenom, readNft, writeDenom, writeNewNft, writeNft } from "./store.js";
import { denomIdError, tokenIdError, tokenUriError } from "./validation.js";
import { emitMsgEvent } from "../shared/msgEvents.js";

/** MsgEditNFT / MsgTransferNFT field value that keeps the current one (an empty string clears it). */
const DO_NOT_MODIFY = "[do-not-modify]";
const nftStore = (ctx: ExecContext) => ctx.storeOf("nft");

/**
 * The nft module's Msgs (irismod v1.3.1 modules/nft): issue a denom, mint, edit, transfer and burn
 * NFTs. Any account may mint into any denom (v1.3.1 has no minting permission); only an NFT's
 * owner edits, transfers or burns it.
 */
export const nftMessages: Record<string, MsgRoute> = {
  "extmod.nft.MsgIssueDenom": {
    action: "issue_denom",
    signers: (msg) => [fieldText(msg.sender)],
    validateBasic(msg, chain) {
      check(denomIdError(fieldText(msg.id)));
      checkAccountField(msg.sender, chain.bech32Prefix, "invalid sender address");
      const name = fieldText(msg.name).trim();
      if (name === "") throw nftError("invalidDenomName", `denom name(${name}) can not be space`);
    },
    async handler(msg, ctx) {
      const store = nftStore(ctx);
      const [id, name, sender] = [fieldText(msg.id), fieldText(msg.name), fieldText(msg.sender)];
      if (await store.get(denomKey(id))) throw nftError("invalidDenom", `denomID ${id} has already exists`);
      if (await store.get(denomNameKey(name))) throw nftError("invalidDenom", `denomName ${name} has already exists`);
      writeDenom(store, { id, name, schema: fieldText(msg.schema), creator: sender }, ctx);
      emitMsgEvent(ctx, "nft", sender, "issue_denom", { denom_id: id, denom_name: name, creator: sender });
      return {};
    },
  },

  "extmod.nft.MsgMintNFT": {
    action: "mint_nft",
    signers: (msg) => [fieldText(msg.sender)],
    validateBasic(msg, chain) {
      checkAccountField(msg.sender, chain.bech32Prefix, "invalid sender address");
      checkAccountField(msg.recipient, chain.bech32Prefix, "invalid receipt address");
      check(denomIdError(fieldText(msg.denom_id)));
      check(tokenUriError(fieldText(msg.uri)));
      check(tokenIdError(fieldText(msg.id)));
    },
    async handler(msg, ctx) {
      const store = nftStore(ctx);
      const [denomId, id, recipient] = [fieldText(msg.denom_id), fieldText(msg.id), fieldText(msg.recipient)];
      await requireDenom(ctx, denomId);
      if (await readNft(store, denomId, id, ctx)) throw nftError("nftAlreadyExists", `NFT ${id} already exists in collection ${denomId}`);
      await writeNewNft(store, denomId, { id, name: fieldText(msg.name), uri: fieldText(msg.uri), data: fieldText(msg.data), owner: recipient }, ctx);
      emitMsgEvent(ctx, "nft", fieldText(msg.sender), "mint_nft", { token_id: id, denom_id: denomId, token_uri: fieldText(msg.uri), recipient });
      return {};
    },
  },

  "extmod.nft.MsgEditNFT": {
    action: "edit_nft",
    signers: (msg) => [fieldText(msg.sender)],
    validateBasic(msg, chain) {
      checkAccountField(msg.sender, chain.bech32Prefix, "invalid sender address");
      check(denomIdError(fieldText(msg.denom_id)));
      check(tokenUriError(fieldText(msg.uri)));
      check(tokenIdError(fieldText(msg.id)));
    },
    async handler(msg, ctx) {
      const [denomId, id, sender] = [fieldText(msg.denom_id), fieldText(msg.id), fieldText(msg.sender)];
      const nft = await ownedNft(ctx, denomId, id, sender);
      writeNft(nftStore(ctx), denomId, modified(nft, msg), sender, ctx);
      emitMsgEvent(ctx, "nft", sender, "edit_nft", { token_id: id, denom_id: denomId, token_uri: fieldText(msg.uri), owner: sender });
      return {};
    },
  },

  "extmod.nft.MsgTransferNFT": {
    action: "transfer_nft",
    signers: (msg) => [fieldText(msg.sender)],
    validateBasic(msg, chain) {
      check(denomIdError(fieldText(msg.denom_id)));
      checkAccountField(msg.sender, chain.bech32Prefix, "invalid sender address");
      checkAccountField(msg.recipient, chain.bech32Prefix, "invalid recipient address");
      check(tokenIdError(fieldText(msg.id)));
    },
    async handler(msg, ctx) {
      const [denomId, id, sender, recipient] = [fieldText(msg.denom_id), fieldText(msg.id), fieldText(msg.sender), fieldText(msg.recipient)];
      const nft = await ownedNft(ctx, denomId, id, sender);
      writeNft(nftStore(ctx), denomId, { ...modified(nft, msg), owner: recipient }, sender, ctx);
      emitMsgEvent(ctx, "nft", sender, "transfer_nft", { token_id: id, denom_id: denomId, sender, recipient });
      return {};
    },
  },

  "extmod.nft.MsgBurnNFT": {
    action: "burn_nft",
    signers: (msg) => [fieldText(msg.sender)],
    validateBasic(msg, chain) {
      checkAccountField(msg.sender, chain.bech32Prefix, "invalid sender address");
      check(denomIdError(fieldText(msg.denom_id)));
      check(tokenIdError(fieldText(msg.id)));
    },
    async handler(msg, ctx) {
      const [denomId, id, sender] = [fieldText(msg.denom_id), fieldText(msg.id), fieldText(msg.sender)];
      const nft = await ownedNft(ctx, denomId, id, sender);
      await deleteNft(nftStore(ctx), denomId, nft);
      emitMsgEvent(ctx, "nft", sender, "burn_nft", { denom_id: denomId, token_id: id, owner: sender });
      return {};
    },
  },
};

function check(problem: string | undefined): void {
  if (problem) throw nftErrorFromText(problem);
}

async function requireDenom(ctx: ExecContext, denomId: string): Promise<void> {
  if (!(await readDenom(nftStore(ctx), denomId, ctx))) throw nftError("invalidDenom", `denom ID ${denomId} not exists`);
}

/** The denom must exist, and the NFT belong to `sender` (keeper.Authorize: a missing NFT names its denom). */
async function ownedNft(ctx: ExecContext, denomId: string, id: string, sender: string): Promise<ProtoMessage> {
  await requireDenom(ctx, denomId);
  const nft = await readNft(nftStore(ctx), denomId, id, ctx);
  if (!nft) throw nftError("unknownCollection", `not found NFT: ${denomId}`);
  if (fieldText(nft.owner) !== sender) throw nftError("unauthorized", sender);
  return nft;
}

/** name, uri and data replaced where the Msg does not say "[do-not-modify]" (an empty value clears the field). */
function modified(nft: ProtoMessage, msg: ProtoMessage): ProtoMessage {
  const out = { ...nft };
  for (const field of ["name", "uri", "data"]) {
    const value = fieldText(msg[field]);
    if (value !== DO_NOT_MODIFY) out[field] = value;
  }
  return out;
}
