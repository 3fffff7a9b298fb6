import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { http } from "../helpers/http.js";
import { startNode } from "../helpers/processes.js";
import { initDevHome } from "../helpers/devHome.js";
import { tempDir } from "../helpers/tempDir.js";
import { directTx, send, testSigner } from "../helpers/txSigner.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";

const KEEP = 4;

describe("e2e: queries at a height (x-cosmos-block-height) over kept and pruned heights", function () {
  this.timeout(60_000);

  it(`answers with each kept height's state, and refuses heights older than the last ${KEEP}, saying which are kept`, async () => {
    const home = path.join(tempDir(), "home");
    initDevHome(home, { mnemonic: TEST_MNEMONIC });
    const edit = (file: string, from: string, to: string) =>
      fs.writeFileSync(path.join(home, "config", file), fs.readFileSync(path.join(home, "config", file), "utf8").replace(from, to));
    edit("app.toml", "pruning-keep-recent = 100", `pruning-keep-recent = ${KEEP}`);
    edit("config.toml", "create_empty_blocks = false", "create_empty_blocks = true");
    edit("config.toml", 'create_empty_blocks_interval = "1s"', 'create_empty_blocks_interval = "150ms"');
    const node = await startNode(home);
    try {
      const [a, b] = await Promise.all([testSigner(TEST_MNEMONIC, 0), testSigner(TEST_MNEMONIC, 1)]);
      const balanceAt = async (height?: number) => {
        const r = await http(`${node.restUrl}/core/bank/v1beta1/balances/${b.address}/uhub`, {
          headers: height ? { "x-cosmos-block-height": String(height) } : {},
        });
        return r;
      };
      const before = await balanceAt();
      const heightBefore = Number(before.headers.get("grpc-metadata-x-cosmos-block-height"));
      const broadcast = await http(`${node.restUrl}/core/tx/v1beta1/txs`, {
        method: "POST",
        body: JSON.stringify({
          tx_bytes: Buffer.from(await directTx(a, { messages: [send(a.address, b.address, "777")], sequence: 0, accountNumber: 0 })).toString("base64"),
          mode: "BROADCAST_MODE_BLOCK",
        }),
      });
      const txHeight = Number(broadcast.body.tx_response.height);
      expect(broadcast.body.tx_response.code).to.equal(0);

      const old = await balanceAt(txHeight - 1);
      expect(old.headers.get("grpc-metadata-x-cosmos-block-height")).to.equal(String(txHeight - 1));
      expect(old.body.balance.amount).to.equal(before.body.balance.amount);
      const after = await balanceAt(txHeight);
      expect(BigInt(after.body.balance.amount)).to.equal(BigInt(before.body.balance.amount) + 777n);
      expect(heightBefore).to.be.below(txHeight);

      // wait until the height before the transaction has left the kept window
      let latest = txHeight;
      while (latest < txHeight - 1 + KEEP + 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        latest = Number((await balanceAt()).headers.get("grpc-metadata-x-cosmos-block-height"));
      }
      const pruned = await balanceAt(txHeight - 1);
      expect(pruned.status).to.equal(400);
      expect(pruned.body.code).to.equal(3);
      expect(pruned.body.message).to.match(new RegExp(`^cannot query at height ${txHeight - 1}: this node keeps heights \\d+ to \\d+: invalid height$`));
      // the kept range as fields of the error details, not only in the message's text
      const [, earliest, keptLatest] = /keeps heights (\d+) to (\d+)/.exec(pruned.body.message)!;
      expect(pruned.body.details).to.deep.equal([
        {
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          reason: "HEIGHT_NOT_AVAILABLE",
          domain: "chain-rest",
          metadata: { earliest_height: earliest, latest_height: keptLatest },
        },
      ]);
      expect(Number(earliest)).to.be.above(txHeight - 1);
      // the legacy family: the same fields beside "error"
      const legacy = await http(`${node.restUrl}/bank/balances/${b.address}?height=${txHeight - 1}`);
      expect(legacy.status).to.equal(400);
      expect(legacy.body.error).to.match(new RegExp(`^cannot query at height ${txHeight - 1}: this node keeps heights \\d+ to \\d+: invalid height$`));
      expect(Number(legacy.body.earliest_height)).to.be.above(txHeight - 1);
      expect(Number(legacy.body.latest_height)).to.be.at.least(Number(keptLatest));
      // the plain height header beside the Grpc-Metadata- one
      const now = await balanceAt();
      expect(now.headers.get("x-cosmos-block-height")).to.equal(now.headers.get("grpc-metadata-x-cosmos-block-height"));
    } finally {
      await node.proc.stop();
    }
  });
});
