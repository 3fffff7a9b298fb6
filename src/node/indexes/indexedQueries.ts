import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import { encodeBech32Address } from "../../codec/bech32.js";
import { fieldText } from "../../codec/fieldText.js";
import { paginate, type PageRequest } from "../abci/paginate.js";
import { QueryError, invalidArgument, notFound } from "../abci/queryError.js";
import { balanceKey } from "../modules/bank/keys.js";
import { decodeCoin } from "../modules/bank/coinValues.js";
import { denomParam } from "../modules/shared/addressField.js";
import type { QueryContext } from "../modules/nodeModule.js";
import { addressByNumberKey, holdersByAmountPrefix, holdersPrefix, splitByAmount } from "./indexKeys.js";
import { indexesAt } from "./indexReader.js";

/** A height without the indexes (a home made before them, a fork): these queries have nothing to read. */
const noIndex = (what: string) =>
  new QueryError("Unimplemented", `${what} needs the node's derived indexes, which this height does not have (a chain made before them, or a fork)`);

/**
 * DenomOwners (v0.46): the holders of a denom with their balances, in address
 * order, read from the holders index: a page costs its own entries (one index
 * scan from the page's key, one balance read each), whatever the number of accounts.
 */
export async function denomOwners(request: ProtoMessage, ctx: QueryContext): Promise<ProtoMessage> {
  const denom = denomParam(request.denom);
  const index = await indexesAt(ctx);
  if (!index) throw noIndex("denom_owners");
  const bank = ctx.storeOf("bank");
  // each holder entry has its balance (the same batch writes both): the scan and a count read index keys only
  const page = await paginate(index, holdersPrefix(denom), request.pagination as PageRequest | undefined, (holder) => holder);
  const balances = await Promise.all(page.items.map((holder) => bank.get(balanceKey(holder, denom))));
  const owners = page.items.flatMap((holder, i) => {
    const stored = balances[i];
    return stored ? [{ address: encodeBech32Address(ctx.chain.bech32Prefix, holder), balance: { denom, amount: decodeCoin(stored).amount.toString() } }] : [];
  });
  return { denom_owners: owners, pagination: page.pagination };
}

/**
 * TopHolders (chain-rest's own): a denom's holders largest first (equal
 * amounts in address order), read from the holders-by-amount index, whose
 * key holds the amount: a page costs its own entries and no balance read.
 */
export async function topHolders(request: ProtoMessage, ctx: QueryContext): Promise<ProtoMessage> {
  const denom = denomParam(request.denom);
  const index = await indexesAt(ctx);
  if (!index) throw noIndex("top_holders");
  const page = await paginate(index, holdersByAmountPrefix(denom), request.pagination as PageRequest | undefined, (key) => splitByAmount(key));
  const owners = page.items.map(({ amount, holder }) => ({
    address: encodeBech32Address(ctx.chain.bech32Prefix, holder),
    balance: { denom, amount: amount.toString() },
  }));
  return { denom_owners: owners, pagination: page.pagination };
}

/** AccountAddressByID (v0.46): the address of an account number, from the account-number index. */
export async function accountAddressById(request: ProtoMessage, ctx: QueryContext): Promise<ProtoMessage> {
  const id = BigInt(fieldText(request.id, "0")) || BigInt(fieldText(request.account_id, "0"));
  if (id < 0n) throw invalidArgument("invalid account id: a number >= 0");
  const index = await indexesAt(ctx);
  if (!index) throw noIndex("address_by_id");
  const address = await index.get(addressByNumberKey(id));
  if (!address) throw notFound(`account address not found with account number ${id}`);
  return { account_address: encodeBech32Address(ctx.chain.bech32Prefix, address) };
}
