import { expect } from "chai";
import { createHash } from "node:crypto";
import path from "node:path";
import { http } from "../helpers/http.js";
import { startNode, type StartedNode } from "../helpers/processes.js";
import { initDevHome } from "../helpers/devHome.js";
import { tempDir } from "../helpers/tempDir.js";
import { directTx, send, testSigner, type TestSigner } from "../helpers/txSigner.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";

const ACCOUNTS = 10;
const PER_ACCOUNT = 20;

/** Sum of every account's uhub balance (module accounts included), through the REST routes. */
async function totalBalances(restUrl: string): Promise<bigint> {
  let total = 0n;
  let key: string | null = null;
  do {
    const page: { body: { accounts: Array<{ address?: string; base_account?: { address: string } }>; pagination: { next_key: string | null } } } = await http(
      `${restUrl}/core/auth/v1beta1/accounts?pagination.limit=100${key ? `&pagination.key=${encodeURIComponent(key)}` : ""}`,
    );
    for (const account of page.body.accounts) {
      const address = account.address ?? account.base_account!.address;
      const balances = (await http(`${restUrl}/core/bank/v1beta1/balances/${address}`)).body.balances as Array<{ denom: string; amount: string }>;
      total += BigInt(balances.find((b) => b.denom === "uhub")?.amount ?? "0");
    }
    key = page.body.pagination.next_key;
  } while (key);
  return total;
}

async function supply(restUrl: string): Promise<bigint> {
  return BigInt((await http(`${restUrl}/core/bank/v1beta1/supply/uhub`)).body.amount.amount);
}

async function broadcast(restUrl: string, bytes: Uint8Array, mode: string) {
  return http(`${restUrl}/core/tx/v1beta1/txs`, { method: "POST", body: JSON.stringify({ tx_bytes: Buffer.from(bytes).toString("base64"), mode }) });
}

describe("e2e: many transactions at once, and a crash while broadcasting", function () {
  this.timeout(180_000);
  let signers: TestSigner[];

  before(async () => {
    signers = await Promise.all([...Array(ACCOUNTS + 1).keys()].map((i) => testSigner(TEST_MNEMONIC, i)));
  });

  it(`${ACCOUNTS * PER_ACCOUNT} transactions from ${ACCOUNTS} accounts: each accepted one is in a block exactly once, and balances add up to the supply`, async () => {
    const home = path.join(tempDir(), "home");
    initDevHome(home, { accounts: ACCOUNTS + 1, mnemonic: TEST_MNEMONIC });
    const node = await startNode(home);
    try {
      const accepted: string[] = [];
      await Promise.all(
        signers.slice(0, ACCOUNTS).map(async (signer, index) => {
          for (let sequence = 0; sequence < PER_ACCOUNT; sequence++) {
            const bytes = await directTx(signer, { messages: [send(signer.address, signers[ACCOUNTS]!.address, "1")], sequence, accountNumber: index });
            const r = await broadcast(node.restUrl, bytes, "BROADCAST_MODE_SYNC");
            if (r.body.tx_response.code === 0) accepted.push(r.body.tx_response.txhash);
          }
        }),
      );
      expect(accepted).to.have.length(ACCOUNTS * PER_ACCOUNT);
      // every accepted transaction appears exactly once across the blocks
      const counted = new Map<string, number>();
      let heightSeen = 0;
      for (let tries = 0; tries < 200 && [...counted.values()].reduce((a, b) => a + b, 0) < accepted.length; tries++) {
        const latest = Number((await http(`${node.restUrl}/core/base/consensus/v1beta1/blocks/latest`)).body.block.header.height);
        for (let h = heightSeen + 1; h <= latest; h++) {
          const answer = await http(`${node.restUrl}/core/base/consensus/v1beta1/blocks/${h}`);
          expect(answer.status, answer.text).to.equal(200);
          const block = answer.body.block;
          for (const tx of block.data.txs as string[]) {
            const hash = createHash("sha256").update(Buffer.from(tx, "base64")).digest("hex").toUpperCase();
            counted.set(hash, (counted.get(hash) ?? 0) + 1);
          }
        }
        heightSeen = latest;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      for (const hash of accepted) expect(counted.get(hash), hash).to.equal(1);
      expect(counted.size).to.equal(accepted.length);
      const recipient = (await http(`${node.restUrl}/core/bank/v1beta1/balances/${signers[ACCOUNTS]!.address}/uhub`)).body.balance.amount;
      expect(BigInt(recipient)).to.equal(1_000_000_000_000n + BigInt(accepted.length));
      expect(await totalBalances(node.restUrl)).to.equal(await supply(node.restUrl));
    } finally {
      await node.proc.stop();
    }
  });

  it("after SIGKILL during broadcasts, every transaction whose BLOCK broadcast succeeded is found, and state is consistent", async () => {
    const home = path.join(tempDir(), "home");
    initDevHome(home, { accounts: 4, mnemonic: TEST_MNEMONIC });
    let node: StartedNode = await startNode(home);
    const committed: Array<{ hash: string; height: number }> = [];
    const [a, , c] = signers;
    let sequence = 0;
    const sending = (async () => {
      for (;;) {
        const bytes = await directTx(a!, { messages: [send(a!.address, c!.address, "3")], sequence, accountNumber: 0 });
        let r;
        try {
          r = await broadcast(node.restUrl, bytes, "BROADCAST_MODE_BLOCK");
        } catch {
          return; // the node is gone
        }
        if (r.status !== 200 || r.body.tx_response.code !== 0) return;
        committed.push({ hash: r.body.tx_response.txhash, height: Number(r.body.tx_response.height) });
        sequence++;
      }
    })();
    while (committed.length < 15) await new Promise((resolve) => setTimeout(resolve, 20));
    node.proc.child.kill("SIGKILL");
    await sending;
    await node.proc.exited;

    node = await startNode(home);
    try {
      const height = Number(node.proc.output().match(/at height (\d+)/)![1]);
      expect(height).to.be.at.least(committed.at(-1)!.height);
      for (const { hash, height: at } of committed) {
        const r = await http(`${node.restUrl}/core/tx/v1beta1/txs/${hash}`);
        expect(r.status, hash).to.equal(200);
        expect(Number(r.body.tx_response.height)).to.equal(at);
      }
      expect(await totalBalances(node.restUrl)).to.equal(await supply(node.restUrl));
      // the account's sequence on chain covers at least every committed transaction
      const account = (await http(`${node.restUrl}/core/auth/v1beta1/accounts/${a!.address}`)).body.account;
      expect(Number(account.sequence)).to.be.at.least(committed.length);
    } finally {
      await node.proc.stop();
    }
  });
});
