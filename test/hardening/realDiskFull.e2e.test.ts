import { expect } from "chai";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { http, type HttpAnswer } from "../helpers/http.js";
import { startNode, type StartedNode } from "../helpers/processes.js";
import { initDevHome } from "../helpers/devHome.js";
import { tempDir } from "../helpers/tempDir.js";
import { directTx, send, testSigner, type TestSigner } from "../helpers/txSigner.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";

const SENDERS = 4;
/** The home's file system: small enough to fill in a moment, large enough for a dev home and its LevelDB. */
const TMPFS_SIZE = "24m";

/**
 * A real full disk: the home on a small tmpfs, filled by a file while bank
 * sends go on (SYNC and BLOCK), then freed. Every transaction acknowledged as
 * committed, at its height, and every block hash seen must be there after a
 * stop (SIGTERM or SIGKILL) and a restart from a copy of the home on a larger
 * file system. Mounting needs root (CI runs as root); otherwise the test says
 * so and is skipped. test/hardening/diskFull.test.ts injects the same fault at
 * the store's write, beside this one.
 */
describe("hardening: a real full disk (tmpfs), then freed: nothing acknowledged is lost", function () {
  this.timeout(240_000);
  let mountDir = "";
  let signers: TestSigner[];

  before(function () {
    if (process.getuid?.() !== 0) {
      console.log("    skipped: mounting a tmpfs needs root, and this test runs as another user");
      this.skip();
    }
    mountDir = tempDir("chain-rest-tmpfs-");
    try {
      execFileSync("mount", ["-t", "tmpfs", "-o", `size=${TMPFS_SIZE}`, "tmpfs", mountDir], { stdio: "pipe" });
    } catch (err) {
      console.log(`    skipped: could not mount a tmpfs (${String((err as Error).message).split("\n")[0]})`);
      mountDir = "";
      this.skip();
    }
  });
  before(async () => {
    signers = await Promise.all([...Array(SENDERS + 1).keys()].map((i) => testSigner(TEST_MNEMONIC, i)));
  });
  after(() => {
    if (mountDir) execFileSync("umount", ["-l", mountDir]);
  });

  for (const signal of ["SIGTERM", "SIGKILL"] as const) {
    it(`after the disk was full and freed, a ${signal} and a restart from a copy: every acknowledged tx and block is there`, async () => {
      const home = path.join(mountDir, `home-${signal}`);
      initDevHome(home, { accounts: SENDERS + 1, mnemonic: TEST_MNEMONIC });
      let node: StartedNode = await startNode(home);
      const sequences = new Array<number>(SENDERS).fill(0);
      /** Acknowledged as committed: BLOCK answers with code 0 and a height. */
      const committed = new Map<string, number>();
      let attempts = 0;
      const sendRound = async (): Promise<HttpAnswer[]> =>
        Promise.all(
          signers.slice(0, SENDERS).map(async (signer, index) => {
            const mode = index % 2 === 0 ? "BROADCAST_MODE_BLOCK" : "BROADCAST_MODE_SYNC";
            const bytes = await directTx(signer, {
              // a new amount each attempt: a resent sequence is then another tx (a BLOCK send refused while
              // blocks could not be written stays in the mempool, and its very bytes would be "already in cache")
              messages: [send(signer.address, signers[SENDERS]!.address, String(++attempts))],
              sequence: sequences[index]!,
              accountNumber: index,
            });
            const r = await http(`${node.restUrl}/core/tx/v1beta1/txs`, {
              method: "POST",
              body: JSON.stringify({ tx_bytes: Buffer.from(bytes).toString("base64"), mode }),
            });
            if (r.status === 200 && r.body.tx_response.code === 0) {
              sequences[index]!++;
              if (mode === "BROADCAST_MODE_BLOCK") committed.set(r.body.tx_response.txhash, Number(r.body.tx_response.height));
            } else if (r.status === 200 && r.body.tx_response.code === 32) {
              sequences[index] = Number(/expected (\d+)/.exec(r.body.tx_response.raw_log)?.[1] ?? sequences[index]);
            }
            return r;
          }),
        );
      try {
        for (let round = 0; round < 3; round++) await sendRound();

        // fill the disk: the writes of the next blocks fail in LevelDB's log
        const filler = path.join(mountDir, `filler-${signal}`);
        fillDisk(filler);
        let refused: HttpAnswer | undefined;
        for (let round = 0; round < 200 && !refused; round++) {
          refused = (await sendRound()).find((r) => r.status !== 200);
          if (!refused) await sleep(20);
        }
        expect(refused, "a broadcast refused while the disk is full").to.not.equal(undefined);
        expect(refused!.status, refused!.text).to.equal(503);
        expect(refused!.body.code).to.equal(14);
        expect(refused!.body.message).to.include("cannot write blocks");
        const read = await http(`${node.restUrl}/core/bank/v1beta1/balances/${signers[SENDERS]!.address}`);
        expect(read.status, "reads are answered while the disk is full").to.equal(200);

        // free it: blocks resume, and more sends are committed
        fs.rmSync(filler);
        const before = committed.size;
        for (let round = 0; round < 400 && committed.size < before + 12; round++) {
          await sendRound();
          await sleep(20);
        }
        expect(committed.size, "sends committed after the disk was freed").to.be.at.least(before + 12);
        const latest = Number((await http(`${node.restUrl}/core/base/consensus/v1beta1/blocks/latest`)).body.block.header.height);
        const hashes = new Map<number, string>();
        for (let height = 1; height <= latest; height++) {
          hashes.set(height, (await http(`${node.restUrl}/core/base/consensus/v1beta1/blocks/${height}`)).body.block_id.hash as string);
        }

        // stop, copy the home to a larger file system, start again
        if (signal === "SIGTERM") expect(await node.proc.stop("SIGTERM")).to.equal(0);
        else {
          node.proc.child.kill("SIGKILL");
          await node.proc.exited;
        }
        const copy = path.join(tempDir(), "home");
        fs.cpSync(home, copy, { recursive: true });
        fs.rmSync(home, { recursive: true, force: true });
        node = await startNode(copy);
        const restarted = Number((await http(`${node.restUrl}/core/base/consensus/v1beta1/blocks/latest`)).body.block.header.height);
        expect(restarted, "the height never goes back").to.be.at.least(latest);
        for (const [height, hash] of hashes) {
          const block = await http(`${node.restUrl}/core/base/consensus/v1beta1/blocks/${height}`);
          expect(block.body.block_id?.hash, `block ${height}`).to.equal(hash);
        }
        for (const [hash, height] of committed) {
          const found = await http(`${node.restUrl}/core/tx/v1beta1/txs/${hash}`);
          expect(found.status, `acknowledged tx ${hash}`).to.equal(200);
          expect(Number(found.body.tx_response.height)).to.equal(height);
        }
      } finally {
        fs.rmSync(path.join(mountDir, `filler-${signal}`), { force: true });
        await node.proc.stop();
      }
    });
  }
});

/** Writes `file` until the file system has no space left. */
function fillDisk(file: string): void {
  const fd = fs.openSync(file, "w");
  try {
    for (const size of [64 * 1024, 4096, 1]) {
      const chunk = Buffer.alloc(size, 1);
      try {
        for (;;) fs.writeSync(fd, chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOSPC") throw err;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
