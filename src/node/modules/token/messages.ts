import { fieldText } from "../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { concatBytes } from "../../store/keyEncoding.js";
import { utf8 } from "../../store/moduleStore.js";
import { burnCoins, getSupply, mintCoins, sendCoins } from "../bank/keeper.js";
import type { ChainInfo, ExecContext, MsgRoute } from "../nodeModule.js";
import { accountBytes, bech32Bytes, checkAccountField } from "../shared/msgAddresses.js";
import { tokenError, tokenErrorFromText } from "./errors.js";
import {
  chargeTokenFee,
  existingToken,
  feesOf,
  issuedMainUnits,
  precision,
  requireOwner,
  TOKEN_MODULE,
  tokenModuleAddress,
  tokenStore,
  writeDenomMetadata,
} from "./keeper.js";
import { addBurnedCoin, hasToken, ownerPrefix, writeToken } from "./store.js";
import { MAXIMUM_MAX_SUPPLY, MAXIMUM_NAME_LENGTH, symbolError, tokenFieldsError } from "./validation.js";
import { emitMsgEvent } from "../shared/msgEvents.js";

/** MsgEditToken.name that keeps the current name. */
const DO_NOT_MODIFY = "[do-not-modify]";
const big = (value: unknown) => BigInt(fieldText(value, "0"));

/**
 * The token module's Msgs (irismod v1.3.1 modules/token): issue, edit, mint, burn, and transfer
 * a token's ownership; issue and mint fees as the keeper charges them (keeper.ts).
 */
export const tokenMessages: Record<string, MsgRoute> = {
  "extmod.token.MsgIssueToken": {
    action: "issue_token",
    signers: (msg) => [fieldText(msg.owner)],
    validateBasic(msg, chain) {
      checkAccountField(msg.owner, chain.bech32Prefix, "invalid owner address");
      const problem = tokenFieldsError(fieldsOf(issuedToken(msg)));
      if (problem) throw tokenErrorFromText(problem[1]);
    },
    async handler(msg, ctx) {
      const owner = fieldText(msg.owner);
      const token = issuedToken(msg);
      await chargeTokenFee(ctx, owner, (await feesOf(tokenStore(ctx), String(token.symbol), ctx)).issue);
      const store = tokenStore(ctx);
      if (await hasToken(store, String(token.symbol))) throw tokenError("symbolExists", `symbol already exists: ${String(token.symbol)}`);
      if (await hasToken(store, String(token.min_unit))) throw tokenError("minUnitExists", `min-unit already exists: ${String(token.min_unit)}`);
      writeToken(store, token, accountBytes(owner, ctx), ctx);
      writeDenomMetadata(ctx, token);
      await mintTo(ctx, token, big(token.initial_supply), owner);
      emitMsgEvent(ctx, TOKEN_MODULE, owner, "issue_token", { symbol: String(token.symbol), creator: owner });
      return {};
    },
  },

  "extmod.token.MsgEditToken": {
    action: "edit_token",
    signers: (msg) => [fieldText(msg.owner)],
    validateBasic(msg, chain) {
      checkAccountField(msg.owner, chain.bech32Prefix, "invalid owner address");
      const name = fieldText(msg.name);
      if (name.length === 0 || name.length > MAXIMUM_NAME_LENGTH) {
        throw tokenError("invalidName", `invalid token name ${name}, only accepts length (0, ${MAXIMUM_NAME_LENGTH}]`);
      }
      checkSymbol(msg.symbol);
    },
    async handler(msg, ctx) {
      const owner = fieldText(msg.owner);
      const symbol = fieldText(msg.symbol);
      const token = await existingToken(ctx, symbol);
      requireOwner(token, owner, symbol);
      const maxSupply = big(msg.max_supply);
      if (maxSupply > 0n) {
        const issued = await issuedMainUnits(ctx, token);
        if (maxSupply < issued) throw tokenError("invalidMaxSupply", `max supply must not be less than ${issued}`);
        token.max_supply = maxSupply.toString();
      }
      const name = fieldText(msg.name);
      if (name !== DO_NOT_MODIFY) {
        token.name = name;
        writeDenomMetadata(ctx, token);
      }
      const mintable = fieldText(msg.mintable);
      if (mintable !== "") token.mintable = parseGoBool(mintable);
      writeToken(tokenStore(ctx), token, undefined, ctx);
      emitMsgEvent(ctx, TOKEN_MODULE, owner, "edit_token", { symbol, owner });
      return {};
    },
  },

  "extmod.token.MsgMintToken": {
    action: "mint_token",
    signers: (msg) => [fieldText(msg.owner)],
    validateBasic(msg, chain) {
      checkAccountField(msg.owner, chain.bech32Prefix, "invalid owner address");
      if (fieldText(msg.to) !== "") checkAccountField(msg.to, chain.bech32Prefix, "invalid mint reception address");
      checkAmount(msg.amount);
      checkSymbol(msg.symbol);
    },
    async handler(msg, ctx) {
      const owner = fieldText(msg.owner);
      const symbol = fieldText(msg.symbol);
      const recipient = fieldText(msg.to) || owner;
      // the mint fee comes first: a mint that fails later is rolled back with it
      await chargeTokenFee(ctx, owner, (await feesOf(tokenStore(ctx), symbol, ctx)).mint);
      const token = await existingToken(ctx, symbol);
      requireOwner(token, owner, symbol);
      if (token.mintable !== true) throw tokenError("notMintable", symbol);
      const amount = big(msg.amount);
      const unit = precision(token);
      const mintable = (big(token.max_supply) * unit - (await getSupply(ctx.storeOf("bank"), fieldText(token.min_unit)))) / unit;
      if (amount > mintable) throw tokenError("invalidAmount", `the amount exceeds the mintable token amount; expected (0, ${mintable}], got ${amount}`);
      await mintTo(ctx, token, amount, recipient);
      emitMsgEvent(ctx, TOKEN_MODULE, owner, "mint_token", { symbol, amount: amount.toString(), recipient });
      return {};
    },
  },

  "extmod.token.MsgBurnToken": {
    action: "burn_token",
    signers: (msg) => [fieldText(msg.sender)],
    validateBasic(msg, chain) {
      checkAccountField(msg.sender, chain.bech32Prefix, "invalid owner address");
      checkAmount(msg.amount);
      checkSymbol(msg.symbol);
    },
    async handler(msg, ctx) {
      const sender = fieldText(msg.sender);
      const symbol = fieldText(msg.symbol);
      const token = await existingToken(ctx, symbol);
      // any holder burns its own coins: there is no owner check
      const amount = big(msg.amount);
      const coin = { denom: fieldText(token.min_unit), amount: amount * precision(token) };
      const module = tokenModuleAddress(ctx);
      await sendCoins(ctx, sender, module, [coin]);
      await addBurnedCoin(tokenStore(ctx), coin, ctx);
      await burnCoins(ctx, module, [coin]);
      emitMsgEvent(ctx, TOKEN_MODULE, sender, "burn_token", { symbol, amount: amount.toString() });
      return {};
    },
  },

  "extmod.token.MsgTransferTokenOwner": {
    action: "transfer_token_owner",
    signers: (msg) => [fieldText(msg.src_owner)],
    validateBasic(msg, chain) {
      checkAccountField(msg.src_owner, chain.bech32Prefix, "invalid source owner address");
      checkAccountField(msg.dst_owner, chain.bech32Prefix, "invalid destination owner address");
      if (sameAddress(msg.src_owner, msg.dst_owner, chain)) throw tokenError("invalidToAddress");
      checkSymbol(msg.symbol);
    },
    async handler(msg, ctx) {
      const src = fieldText(msg.src_owner);
      const dst = fieldText(msg.dst_owner);
      const symbol = fieldText(msg.symbol);
      const token = await existingToken(ctx, symbol);
      requireOwner(token, src, symbol);
      token.owner = dst;
      const store = tokenStore(ctx);
      store.delete(concatBytes(ownerPrefix(accountBytes(src, ctx)), utf8(symbol)));
      writeToken(store, token, accountBytes(dst, ctx), ctx);
      emitMsgEvent(ctx, TOKEN_MODULE, src, "transfer_token_owner", { symbol, owner: src, dst_owner: dst });
      return {};
    },
  },
};

/** The token an issue creates (NewToken): an unset max supply is the largest for a mintable token, else the initial supply. */
function issuedToken(msg: ProtoMessage): ProtoMessage {
  const initial = big(msg.initial_supply);
  const max = big(msg.max_supply);
  const mintable = msg.mintable === true;
  return {
    symbol: fieldText(msg.symbol),
    name: fieldText(msg.name),
    scale: Number(msg.scale ?? 0),
    min_unit: fieldText(msg.min_unit),
    initial_supply: initial.toString(),
    max_supply: (max === 0n ? (mintable ? MAXIMUM_MAX_SUPPLY : initial) : max).toString(),
    mintable,
    owner: fieldText(msg.owner),
  };
}

function fieldsOf(token: ProtoMessage) {
  return {
    symbol: String(token.symbol),
    name: String(token.name),
    scale: Number(token.scale),
    min_unit: String(token.min_unit),
    initial_supply: big(token.initial_supply),
    max_supply: big(token.max_supply),
  };
}

function checkSymbol(symbol: unknown): void {
  const problem = symbolError(fieldText(symbol));
  if (problem) throw tokenErrorFromText(problem);
}

/** A mint or burn amount must be positive (the real check names the max supply error). */
function checkAmount(amount: unknown): void {
  if (big(amount) === 0n) throw tokenError("invalidMaxSupply", `invalid token amount 0, only accepts value (0, ${MAXIMUM_MAX_SUPPLY}]`);
}

function sameAddress(a: unknown, b: unknown, chain: ChainInfo): boolean {
  return Buffer.from(bech32Bytes(a, chain.bech32Prefix)).equals(Buffer.from(bech32Bytes(b, chain.bech32Prefix)));
}

/** types.ParseBool over strconv.ParseBool: "1", "t", "T", "TRUE", "true", "True" are true, anything else false. */
function parseGoBool(text: string): boolean {
  return ["1", "t", "T", "TRUE", "true", "True"].includes(text);
}

/** Mints `amount` main units of the token into the module account and sends them on (MintCoins emits nothing; the send does). */
async function mintTo(ctx: ExecContext, token: ProtoMessage, amount: bigint, recipient: string): Promise<void> {
  const coins = amount > 0n ? [{ denom: fieldText(token.min_unit), amount: amount * precision(token) }] : [];
  const module = tokenModuleAddress(ctx);
  await mintCoins(ctx, module, coins);
  await sendCoins(ctx, module, recipient, coins);
}
