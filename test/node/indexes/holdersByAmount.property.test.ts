import { expect } from "chai";
import fc from "fast-check";
import { MsgSend } from "cosmjs-types/cosmos/bank/v1beta1/tx";
import { decodeBech32Address } from "../../../src/codec/bech32.js";
import { concatBytes } from "../../../src/node/store/keyEncoding.js";
import { modulePrefix } from "../../../src/node/store/moduleStore.js";
import { holdersByAmountPrefix, INDEX_STORE } from "../../../src/node/indexes/indexKeys.js";
import { NodeTxKit } from "../../helpers/nodeTxKit.js";

type Owner = { address: string; balance: { denom: string; amount: string } };
const DENOMS = ["uhub", "ugold"];

/**
 * top_holders equals a sort of the scan: over random histories of sends
 * (whole balances too, so holders leave and come back), every denom's holders
 * read through the by-amount index — every page by key, at the latest and at
 * an earlier kept height — are the state's balances largest first (equal
 * amounts in address-byte order), and the index holds exactly one entry per holder.
 */
describe("derived index: holders by amount equal the sorted scan", function () {
  this.timeout(600_000);
  let kit: NodeTxKit;

  before(async () => {
    kit = await NodeTxKit.open(6);
  });
  after(() => kit.close());

  const send = (from: number, to: number, denom: string, amount: bigint) => ({
    typeUrl: "/core.bank.v1beta1.MsgSend",
    value: MsgSend.fromPartial({ fromAddress: kit.addresses[from]!, toAddress: kit.addresses[to]!, amount: [{ denom, amount: amount.toString() }] }),
  });

  async function balanceOf(address: string, denom: string, height: number): Promise<bigint> {
    const r = await kit.query("core.bank.v1beta1.Query.Balance", { address, denom }, height);
    return BigInt((r.body.balance as { amount: string }).amount);
  }

  /** The scan: every account's balance of the denom, largest first, then by address bytes. */
  async function sortedScan(denom: string, height: number): Promise<Owner[]> {
    const owners: Array<Owner & { bytes: Buffer }> = [];
    for (const address of kit.addresses) {
      const amount = await balanceOf(address, denom, height);
      if (amount > 0n)
        owners.push({ address, balance: { denom, amount: amount.toString() }, bytes: Buffer.from(decodeBech32Address(address, "hub", "address")) });
    }
    owners.sort((a, b) => {
      const [x, y] = [BigInt(a.balance.amount), BigInt(b.balance.amount)];
      return x !== y ? (x > y ? -1 : 1) : Buffer.compare(a.bytes, b.bytes);
    });
    return owners.map(({ address, balance }) => ({ address, balance }));
  }

  async function checkAt(height: number): Promise<void> {
    for (const denom of DENOMS) {
      const expected = (await sortedScan(denom, height)).filter((o) => kit.addresses.includes(o.address));
      for (const limit of [1, 3, 100]) {
        const walked: Owner[] = [];
        let key: string | undefined;
        let pages = 0;
        do {
          const r = await kit.query("core.bank.v1beta1.Query.TopHolders", { denom, pagination: { limit, key } }, height);
          expect(r.code, r.log).to.equal(0);
          walked.push(...(r.body.denom_owners as Owner[]));
          key = ((r.body.pagination as { next_key: string | null }).next_key ?? undefined) || undefined;
        } while (key && ++pages < 100);
        // module accounts (fee collector, pools) hold coins too: the dev accounts' entries keep the scan's order among them
        expect(
          walked.filter((o) => kit.addresses.includes(o.address)),
          `${denom} at ${height}, pages of ${limit}`,
        ).to.deep.equal(expected);
        for (const owner of walked) expect(BigInt(owner.balance.amount) > 0n, owner.address).to.equal(true);
      }
      // one index entry per holder: an earlier amount's entry never stays behind
      const holders = (await kit.query("core.bank.v1beta1.Query.DenomOwners", { denom, pagination: { limit: 1000 } }, height)).body.denom_owners as Owner[];
      let entries = 0;
      const full = concatBytes(modulePrefix(INDEX_STORE), holdersByAmountPrefix(denom));
      for await (const _entry of kit.node.store.reader(height).iterate(full)) entries++;
      expect(entries, `${denom} entries at ${height}`).to.equal(holders.length);
    }
  }

  it("over random histories of sends, at the latest and at an earlier height", async () => {
    const step = fc.record({
      from: fc.integer({ min: 0, max: 5 }),
      to: fc.integer({ min: 0, max: 5 }),
      denom: fc.constantFrom(...DENOMS),
      share: fc.constantFrom(1n, 2n, 3n, 10n), // 1: the whole balance (of ugold; uhub keeps its fees)
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        const start = kit.height;
        for (const { from, to, denom, share } of steps) {
          const balance = await balanceOf(kit.addresses[from]!, denom, 0);
          const amount = denom === "uhub" ? balance / (share + 1n) : balance / share;
          if (amount <= 0n || from === to) continue;
          const delivered = await kit.deliver(from, [send(from, to, denom, amount)]);
          expect(delivered.code, delivered.log).to.equal(0);
        }
        await checkAt(kit.height);
        if (kit.height > start) await checkAt(start);
      }),
      { numRuns: 15 },
    );
  });
});
