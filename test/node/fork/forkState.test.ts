import path from "node:path";
import { expect } from "chai";
import { RpcClient } from "../../../src/client/rpcClient.js";
import { decodeBech32Address } from "../../../src/codec/bech32.js";
import type { EmbeddedNode } from "../../../src/node/embeddedNode.js";
import { ForkUnderlay } from "../../../src/node/fork/forkUnderlay.js";
import { ForkError, FORK_REMOTE_ATTEMPTS, RemoteState } from "../../../src/node/fork/remoteState.js";
import { InProcessClient } from "../../../src/node/inProcessClient.js";
import { balancesPrefix } from "../../../src/node/modules/bank/keys.js";
import { concatBytes } from "../../../src/node/store/keyEncoding.js";
import { utf8 } from "../../../src/node/store/moduleStore.js";
import { VersionedStore } from "../../../src/node/store/versionedStore.js";
import { openDevNode } from "../../helpers/devNode.js";
import { tempDir } from "../../helpers/tempDir.js";

const hex = (bytes: Uint8Array | undefined) => (bytes ? Buffer.from(bytes).toString("hex") : undefined);
const entriesHex = (entries: Array<[Uint8Array, Uint8Array]>) => entries.map(([k, v]) => [hex(k), hex(v)]);

/** The error a promise is rejected with (it must be rejected). */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a rejection");
}

async function collect(iterator: AsyncIterable<[Uint8Array, Uint8Array]>): Promise<Array<[Uint8Array, Uint8Array]>> {
  const out: Array<[Uint8Array, Uint8Array]> = [];
  for await (const entry of iterator) out.push(entry);
  return out;
}

/** The fork's read-through layer over a real dev node in this process (the remote), asked through its abci_query. */
describe("fork: the remote state read lazily, and the fork's writes over it", function () {
  this.timeout(60_000);
  let remoteNode: EmbeddedNode;
  let height: number;
  let balances: Uint8Array[];

  before(async () => {
    const dev = await openDevNode({ accounts: 4 });
    remoteNode = dev.node;
    await remoteNode.produceBlock();
    height = remoteNode.height;
    balances = dev.addresses.map((address) => concatBytes(utf8("bank/"), balancesPrefix(decodeBech32Address(address, "hub", "address"))));
  });
  after(async () => {
    await remoteNode.close();
  });

  const remoteState = (maxBytes?: number) => new RemoteState(new InProcessClient(remoteNode), "in-process", height, maxBytes);
  const own = () => remoteNode.store.reader(height);

  it("reads a key once: the value, and an absent key, are kept", async () => {
    const remote = remoteState();
    const key = concatBytes(balances[0]!, utf8("uhub"));
    const absent = concatBytes(balances[0]!, utf8("unothing"));
    expect(hex(await remote.get(key)))
      .to.equal(hex(await own().get(key)))
      .and.not.equal(undefined);
    expect(await remote.get(absent)).to.equal(undefined);
    const reads = remote.remoteReads;
    await remote.get(key);
    await remote.get(absent);
    expect(remote.remoteReads).to.equal(reads);
  });

  it("reads a prefix's range once: later scans under it and keys in it are answered from it", async () => {
    const remote = remoteState();
    const prefix = utf8("bank/");
    const all = concatBytes(prefix, Uint8Array.of(balances[0]![prefix.length]!)); // every balance
    expect(entriesHex(await remote.scan(all))).to.deep.equal(entriesHex(await collect(own().iterate(all))));
    const reads = remote.remoteReads;
    expect(entriesHex(await remote.scan(balances[1]!))).to.deep.equal(entriesHex(await collect(own().iterate(balances[1]!))));
    expect(hex(await remote.get(concatBytes(balances[2]!, utf8("uhub"))))).to.equal(hex(await own().get(concatBytes(balances[2]!, utf8("uhub")))));
    expect(remote.remoteReads).to.equal(reads);
  });

  it("keeps nothing past its byte bound", async () => {
    const remote = remoteState(1);
    const key = concatBytes(balances[0]!, utf8("uhub"));
    await remote.get(key);
    await remote.get(key);
    expect(remote.remoteReads).to.equal(2);
  });

  it("refuses a scan of a whole store and a height the remote does not keep, plainly", async () => {
    const whole = await rejection(remoteState().scan(utf8("bank/")));
    expect(whole).to.be.instanceOf(ForkError);
    expect(whole.message).to.include("a scan of the whole bank store");
    const gone = new RemoteState(new InProcessClient(remoteNode), "in-process", height + 1000);
    const pruned = await rejection(gone.get(concatBytes(balances[0]!, utf8("uhub"))));
    expect(pruned).to.be.instanceOf(ForkError);
    expect(pruned.message).to.include(`no longer keeps height ${height + 1000}`);
  });

  it("gives up on a remote that cannot be reached after a bounded number of tries", async () => {
    const remote = new RemoteState(new RpcClient("http://127.0.0.1:9", 2_000), "http://127.0.0.1:9", 5);
    const failure = await rejection(remote.get(concatBytes(balances[0]!, utf8("uhub"))));
    expect(failure).to.be.instanceOf(ForkError);
    expect(failure.message).to.include(`did not answer /store/bank/key at height 5 after ${FORK_REMOTE_ATTEMPTS} tries`);
    expect(remote.remoteReads).to.equal(FORK_REMOTE_ATTEMPTS);
  });

  it("layers the fork's versions over the remote: writes win, deletions hide the remote's value from their version on", async () => {
    const store = await VersionedStore.open(path.join(tempDir(), "fork.db"));
    try {
      store.setUnderlay(new ForkUnderlay(remoteState(), ["bank"]));
      await store.commitFirst(store.beginAt(height));
      const [gone, changed, kept] = balances.map((b) => concatBytes(b, utf8("uhub")));
      const next = store.begin();
      next.delete(gone!);
      next.set(changed!, utf8("42"));
      await store.commit(next);

      const before = store.reader(height);
      const after = store.reader(height + 1);
      expect(hex(await before.get(gone!))).to.equal(hex(await own().get(gone!)));
      expect(await after.get(gone!)).to.equal(undefined);
      expect(new TextDecoder().decode(await after.get(changed!))).to.equal("42");
      expect(hex(await after.get(kept!))).to.equal(hex(await own().get(kept!)));

      const prefix = concatBytes(utf8("bank/"), Uint8Array.of(balances[0]![5]!));
      const expected = (await collect(own().iterate(prefix)))
        .filter(([key]) => hex(key) !== hex(gone))
        .map(([key, value]): [Uint8Array, Uint8Array] => [key, hex(key) === hex(changed) ? utf8("42") : value]);
      expect(entriesHex(await collect(after.iterate(prefix)))).to.deep.equal(entriesHex(expected));
      expect(entriesHex(await collect(before.iterate(prefix)))).to.deep.equal(entriesHex(await collect(own().iterate(prefix))));
      // a scan from a start key inside the range
      expect(entriesHex(await collect(after.iterate(prefix, kept)))).to.deep.equal(entriesHex(expected.filter(([key]) => Buffer.compare(key, kept!) >= 0)));
    } finally {
      await store.close();
    }
  });

  it("hides a remote key deleted in the fork's first version (--fork-validator deletes remote validator powers there)", async () => {
    const store = await VersionedStore.open(path.join(tempDir(), "fork.db"));
    try {
      store.setUnderlay(new ForkUnderlay(remoteState(), ["bank"]));
      const [gone, kept] = balances.map((b) => concatBytes(b, utf8("uhub")));
      const first = store.beginAt(height);
      first.delete(gone!);
      await store.commitFirst(first);
      expect(await store.reader(height).get(gone!)).to.equal(undefined);
      expect(hex(await store.reader(height).get(kept!))).to.equal(hex(await own().get(kept!)));
      await store.commit(store.begin());
      expect(await store.reader(height + 1).get(gone!)).to.equal(undefined);
    } finally {
      await store.close();
    }
  });
});
