import { expect } from "chai";
import { createHash } from "node:crypto";
import fs from "node:fs";
import nodeHttp from "node:http";
import path from "node:path";
import { setApiSettings } from "../helpers/appToml.js";
import { initDevHome } from "../helpers/devHome.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { http } from "../helpers/http.js";
import { startGateway, startNode, type RunningProcess, type StartedNode } from "../helpers/processes.js";
import { tempDir } from "../helpers/tempDir.js";
import { directTx, send, testSigner } from "../helpers/txSigner.js";
import { freePort } from "../helpers/freePort.js";

const PARAMS = "/core/bank/v1beta1/params";

/** GETs over one kept-alive connection (one socket), as one client of the gateway. */
class OneConnection {
  private readonly agent = new nodeHttp.Agent({ keepAlive: true, maxSockets: 1 });
  constructor(private readonly base: string) {}

  get(pathname: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: nodeHttp.IncomingHttpHeaders; body: string }> {
    return new Promise((resolve, reject) => {
      const request = nodeHttp.get(new URL(pathname, this.base), { agent: this.agent, headers }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      });
      request.on("error", reject);
      // a request the gateway never answers is a failure to report, not a hang
      request.setTimeout(20_000, () => request.destroy(new Error(`no answer to GET ${pathname}`)));
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Polls until `check` holds (state reached, not a time asserted). */
async function until<T>(what: string, read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await read();
    if (process.env.SHOW_LOAD && i % 20 === 19) console.log(what, value);
    if (check(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never: ${what}`);
}

/**
 * Runs `body` until it ends or `ms` pass: then fails naming the step it was at (`step` names each) and
 * what `tail` shows, so that a step that never ends is reported, not a test timeout that says nothing.
 */
async function inSteps<T>(ms: number, tail: () => string, body: (step: (name: string) => void) => Promise<T>): Promise<T> {
  let current = "the first step";
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`stuck for ${ms / 1000} s at: ${current}\n${tail()}`)), ms);
  });
  try {
    return await Promise.race([body((name) => (current = name)), stuck]);
  } finally {
    clearTimeout(timer);
  }
}

/** SIGTERM, then SIGKILL if the process has not exited 15 s later. */
async function stopOrKill(proc: RunningProcess): Promise<void> {
  const late = setTimeout(() => proc.child.kill("SIGKILL"), 15_000);
  await proc.stop();
  clearTimeout(late);
}

describe("e2e: one gateway in front of three nodes", function () {
  this.timeout(150_000);

  it("keeps answering when a node is killed under load (no failed GET, no height going back, each broadcast once) and refuses unkept heights naming every range", async () => {
    // three homes from one genesis: each node makes its own blocks of the same chain id, so their
    // heights differ by how far apart they started (max-lag-blocks allows it)
    const base = path.join(tempDir(), "home");
    initDevHome(base, { mnemonic: TEST_MNEMONIC });
    const configToml = path.join(base, "config", "config.toml");
    fs.writeFileSync(
      configToml,
      fs.readFileSync(configToml, "utf8").replace("create_empty_blocks = false", "create_empty_blocks = true").replace('interval = "1s"', 'interval = "400ms"'),
    );
    const homes = ["full", "pruned", "archive"].map((name) => {
      const home = path.join(tempDir(), name);
      fs.cpSync(base, home, { recursive: true });
      return home;
    });
    setApiSettings(homes[1]!, { "pruning-keep-recent": 3 });
    setApiSettings(homes[2]!, { "pruning-keep-recent": 1000000 });
    const fullLaddr = `tcp://127.0.0.1:${await freePort()}`;
    const started: StartedNode[] = [];
    const gatewayHome = path.join(tempDir(), "gateway-home");
    fs.mkdirSync(path.join(gatewayHome, "config"), { recursive: true });
    fs.writeFileSync(
      path.join(gatewayHome, "config", "app.toml"),
      '[api]\nrpc-read-timeout = 5\n[gateway]\nprobe-interval = "300ms"\nmax-lag-blocks = 50\nerror-threshold = 2\ncooldown = "30s"\n',
    );
    let gateway: Awaited<ReturnType<typeof startGateway>> | undefined;
    const connections: OneConnection[] = [];
    let loading = true;
    const lastLines = () =>
      [gateway && { name: "gateway", proc: gateway.proc }, ...started.map((node, i) => ({ name: ["full", "pruned", "archive"][i], proc: node.proc }))]
        .map((p) => p && `${p.name}'s last lines:\n${p.proc.output().slice(-2000)}`)
        .join("\n");
    try {
      await inSteps(100_000, lastLines, async (step) => {
        step("three nodes and the gateway starting");
        const [full, pruned, archive] = await Promise.all([startNode(homes[0]!, ["--rpc.laddr", fullLaddr]), startNode(homes[1]!), startNode(homes[2]!)]);
        started.push(full, pruned, archive);
        gateway = await startGateway(gatewayHome, full.rpcUrl, ["--node", pruned.rpcUrl, "--archive-node", archive.rpcUrl]);
        const rest = gateway.restUrl;

        // ready, every node listed; the pruned node has pruned height 2 by now
        step("three eligible nodes and height 8");
        const ready = await until(
          "three eligible nodes and height 8",
          () => http(`${rest}/readyz`),
          (r) => r.status === 200 && r.body.upstreams.filter((u: { eligible: boolean }) => u.eligible).length === 3 && Number(r.body.height) >= 8,
        );
        expect(ready.body.upstreams.map((u: { address: string }) => u.address)).to.deep.equal([full.rpcUrl, pruned.rpcUrl, archive.rpcUrl]);

        // both height headers, the same value
        const latest = await http(`${rest}${PARAMS}`);
        expect(latest.status).to.equal(200);
        expect(latest.headers.get("x-cosmos-block-height")).to.equal(latest.headers.get("grpc-metadata-x-cosmos-block-height"));
        expect(Number(latest.headers.get("x-cosmos-block-height"))).to.be.greaterThan(0);

        // a pinned old height is answered by a node that keeps it, never by the pruned one
        step("pinned old heights");
        // (an answer reused from the answer cache names no node)
        const answeredBy = new Set<string>();
        for (let i = 0; i < 4; i++) {
          const old = await http(`${rest}${PARAMS}`, { headers: { "x-cosmos-block-height": "2" } });
          expect(old.status, old.text).to.equal(200);
          const node = old.headers.get("x-chain-rest-upstream");
          if (node) answeredBy.add(node);
        }
        expect(answeredBy.size).to.be.above(0);
        for (const node of answeredBy) expect(node).to.be.oneOf([full.rpcUrl, archive.rpcUrl]);

        // load: four connections reading the latest height, broadcasts one after another, the full node killed meanwhile
        const signers = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => testSigner(TEST_MNEMONIC, i)));
        const failures: string[] = [];
        const wentBack: string[] = [];
        let reads = 0;
        step("load before the kill");
        const readers = [0, 1, 2, 3].map(async (c) => {
          const connection = new OneConnection(rest);
          connections.push(connection);
          let seen = 0;
          while (loading) {
            try {
              const r = await connection.get(PARAMS);
              reads++;
              if (r.status !== 200) failures.push(`${r.status} ${r.body}`);
              const height = Number(r.headers["x-cosmos-block-height"]);
              if (height < seen) wentBack.push(`connection ${c}: ${height} after ${seen}`);
              seen = Math.max(seen, height);
            } catch (err) {
              failures.push((err as Error).message);
            }
          }
        });
        // a broadcast in flight on the killed node that it cannot be asked about is answered 503, not sent again:
        // each node here keeps a chain of its own, so the killed node's blocks may hold it and nobody else can tell
        const broadcasts: Array<{ hash: string; status: number; code: number | undefined; note: string }> = [];
        const broadcasting = (async () => {
          for (const signer of signers) {
            const account = await http(`${rest}/core/auth/v1beta1/accounts/${signer.address}`);
            const accountNumber = Number(account.body.account.account_number);
            const bytes = await directTx(signer, { messages: [send(signer.address, signers[0]!.address, "1")], sequence: 0, accountNumber });
            const r = await http(`${rest}/core/tx/v1beta1/txs`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ tx_bytes: Buffer.from(bytes).toString("base64"), mode: "BROADCAST_MODE_BLOCK" }),
            });
            const hash = createHash("sha256").update(bytes).digest("hex").toUpperCase();
            broadcasts.push({ hash, status: r.status, code: r.body?.tx_response?.code, note: r.headers.get("x-chain-rest-broadcast") ?? "" });
          }
        })();
        await until(
          "reads and two broadcasts before the kill",
          async () => reads,
          (n) => n >= 40 && broadcasts.length >= 2,
        );
        step("the kill");
        full.proc.child.kill("SIGKILL");
        await full.proc.exited;
        const readsAtKill = reads;
        step("broadcasts after the kill");
        await broadcasting;
        step("reads after the kill");
        await until(
          "reads after the kill",
          async () => reads,
          (n) => n >= readsAtKill + 60,
        );
        loading = false;
        await Promise.all(readers);
        if (process.env.SHOW_LOAD) console.log(reads, readsAtKill, broadcasts);
        expect(failures, failures.slice(0, 5).join("\n")).to.deep.equal([]);
        expect(wentBack, wentBack.slice(0, 5).join("\n")).to.deep.equal([]);
        const answered = broadcasts.filter((b) => b.status === 200);
        const unsure = broadcasts.filter((b) => b.status !== 200);
        expect(answered.map((b) => b.code)).to.deep.equal(answered.map(() => 0));
        for (const b of answered) expect(b.note).to.match(/^sent once|: not sent again$|; sent once more, to /);
        // only the one in flight at the kill can be unsure: a later one meets a refused connection, or the node already out
        expect(unsure.length, JSON.stringify(unsure)).to.be.at.most(1);
        for (const b of unsure) {
          expect(b.status).to.equal(503);
          expect(b.note).to.match(new RegExp(`^${full.rpcUrl} failed .*cannot be asked: not sent again`));
        }

        // the dead node is listed, out
        step("the killed node out");
        const after = await until(
          "the killed node out",
          () => http(`${rest}/readyz`),
          (r) => r.status === 200 && r.body.upstreams[0].eligible === false,
        );
        expect(after.body.upstreams[0].address).to.equal(full.rpcUrl);

        // the archive node still answers the old height the pruned node dropped
        step("an old height from the archive node");
        const fromArchive = await http(`${rest}/core/bank/v1beta1/balances/${signers[0]!.address}`, { headers: { "x-cosmos-block-height": "2" } });
        expect(fromArchive.status, fromArchive.text).to.equal(200);
        expect(fromArchive.headers.get("x-chain-rest-upstream")).to.equal(archive.rpcUrl);

        // the archive node stopped: the old height is refused with 400, naming every node's kept range
        step("the archive node stopped");
        expect(await archive.proc.stop()).to.equal(0);
        await until(
          "the archive node out",
          () => http(`${rest}/readyz`),
          (r) => r.status === 200 && r.body.upstreams[2].eligible === false,
        );
        const refused = await http(`${rest}${PARAMS}`, { headers: { "x-cosmos-block-height": "2" } });
        expect(refused.status, refused.text).to.equal(400);
        for (const node of [full, pruned, archive]) expect(refused.body.message).to.include(node.rpcUrl);
        expect(refused.body.message).to.match(/no node keeps it/);
        // the heights the nodes that still answer keep, as fields of the error details
        const kept = refused.body.details[0].metadata;
        expect(Number(kept.earliest_height)).to.be.above(2);
        expect(Number(kept.latest_height)).to.be.at.least(Number(kept.earliest_height));

        // each broadcast answered 200 is in exactly one chain, an unsure one in the killed node's at most:
        // the killed node comes back from its store to be asked too
        step("nodes back to be asked for each broadcast");
        const back = await startNode(homes[0]!, ["--rpc.laddr", fullLaddr]);
        started[0] = back;
        const archiveBack = await startNode(homes[2]!);
        started[2] = archiveBack;
        for (const b of broadcasts) {
          const foundOn: string[] = [];
          for (const node of [back, pruned, archiveBack]) {
            const r = await http(`${node.rpcUrl}/tx?hash=0x${b.hash}`);
            if (r.body?.result?.hash === b.hash) foundOn.push(node.rpcUrl);
          }
          if (b.status === 200) expect(foundOn, `${b.hash}: ${b.note}`).to.have.length(1);
          else
            expect(
              foundOn.filter((url) => url !== back.rpcUrl),
              `${b.hash}: ${b.note}`,
            ).to.deep.equal([]);
        }
      });
    } finally {
      loading = false;
      if (process.env.SHOW_LOAD) for (const p of [gateway?.proc, ...started.map((s) => s.proc)]) console.log("-----", p?.output().slice(-2500));
      for (const connection of connections) connection.close();
      // killed after a while: a process that does not stop is reported by the step it hung, not by hanging the run
      const procs = [...(gateway ? [gateway.proc] : []), ...started.map((node) => node.proc)];
      await Promise.all(procs.map((proc) => stopOrKill(proc)));
    }
  });
  it("keeps a /events stream going on another node when the node holding its subscription is killed", async () => {
    const base = path.join(tempDir(), "home");
    initDevHome(base, { mnemonic: TEST_MNEMONIC });
    const configToml = path.join(base, "config", "config.toml");
    fs.writeFileSync(
      configToml,
      fs.readFileSync(configToml, "utf8").replace("create_empty_blocks = false", "create_empty_blocks = true").replace('interval = "1s"', 'interval = "300ms"'),
    );
    const homes = ["a", "b"].map((name) => {
      const home = path.join(tempDir(), name);
      fs.cpSync(base, home, { recursive: true });
      return home;
    });
    const nodes = await Promise.all(homes.map((home) => startNode(home)));
    const gatewayHome = path.join(tempDir(), "gateway-home");
    fs.mkdirSync(path.join(gatewayHome, "config"), { recursive: true });
    fs.writeFileSync(path.join(gatewayHome, "config", "app.toml"), '[gateway]\nprobe-interval = "300ms"\nmax-lag-blocks = 1000\n');
    let gateway: Awaited<ReturnType<typeof startGateway>> | undefined;
    const abort = new AbortController();
    try {
      gateway = await startGateway(gatewayHome, nodes[0]!.rpcUrl, ["--node", nodes[1]!.rpcUrl]);
      const rest = gateway.restUrl;
      await until(
        "both nodes eligible",
        () => http(`${rest}/readyz`),
        (r) => r.status === 200 && r.body.upstreams.every((u: { eligible: boolean }) => u.eligible),
      );
      // a /events request whose head never comes is a failure to report, not a hang of the whole run
      const headLate = setTimeout(() => abort.abort(new Error("no answer to GET /events within 20 s")), 20_000);
      const response = await fetch(`${rest}/events?query=${encodeURIComponent("tm.event='NewBlock'")}`, { signal: abort.signal });
      clearTimeout(headLate);
      expect(response.status).to.equal(200);
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = "";
      let ended = false;
      const blocks: Array<{ height: string; time: string }> = [];
      void (async () => {
        for (;;) {
          const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
          if (done) return void (ended = true);
          text += decoder.decode(value, { stream: true });
          let end: number;
          while ((end = text.indexOf("\n\n")) >= 0) {
            const data = /^data: (.*)$/m.exec(text.slice(0, end))?.[1];
            text = text.slice(end + 2);
            if (data) blocks.push((JSON.parse(data) as { data: { value: { block: { header: { height: string; time: string } } } } }).data.value.block.header);
          }
        }
      })();
      const first = await until(
        "a NewBlock event",
        async () => blocks.length,
        (n) => n >= 2,
      );
      // which node holds the subscription: the one whose block at that height has that time
      const header = blocks[first - 1]!;
      const holderIndex = await until(
        "the holder found",
        async () => {
          for (const [i, node] of nodes.entries()) {
            const r = await http(`${node.rpcUrl}/block?height=${header.height}`);
            if (r.body?.result?.block?.header?.time === header.time) return i;
          }
          return -1;
        },
        (i) => i >= 0,
      );
      const holder = nodes[holderIndex]!;
      const other = nodes[1 - holderIndex]!;
      holder.proc.child.kill("SIGKILL");
      await holder.proc.exited;
      const seen = blocks.length;
      await until(
        "events after the kill",
        async () => blocks.length,
        (n) => n >= seen + 3,
      );
      expect(ended).to.equal(false);
      // the later events are the other node's blocks
      const last = blocks.at(-1)!;
      const fromOther = await http(`${other.rpcUrl}/block?height=${last.height}`);
      expect(fromOther.body.result.block.header.time).to.equal(last.time);

      // a client that drops after the failover resumes with Last-Event-ID: the blocks it missed, no gap, none twice
      abort.abort();
      const seenHeight = Number(blocks.at(-1)!.height);
      await until(
        "blocks made while the client was away",
        async () => Number((await http(`${other.rpcUrl}/status`)).body.result.sync_info.latest_block_height),
        (h) => h >= seenHeight + 3,
      );
      const again = new AbortController();
      try {
        const resumed = await fetch(`${rest}/events?query=${encodeURIComponent("tm.event='NewBlock'")}`, {
          signal: again.signal,
          headers: { "Last-Event-ID": String(seenHeight) },
        });
        expect(resumed.status).to.equal(200);
        const resumedReader = resumed.body!.getReader();
        let resumedText = "";
        const heights: number[] = [];
        while (heights.length < 3) {
          const { value, done } = await resumedReader.read();
          if (done) break;
          resumedText += decoder.decode(value, { stream: true });
          let end: number;
          while ((end = resumedText.indexOf("\n\n")) >= 0) {
            const data = /^data: (.*)$/m.exec(resumedText.slice(0, end))?.[1];
            resumedText = resumedText.slice(end + 2);
            if (data) heights.push(Number((JSON.parse(data) as { data: { value: { block: { header: { height: string } } } } }).data.value.block.header.height));
          }
        }
        expect(heights.slice(0, 3)).to.deep.equal([seenHeight + 1, seenHeight + 2, seenHeight + 3]);
      } finally {
        again.abort();
      }
    } finally {
      abort.abort();
      await gateway?.proc.stop();
      await Promise.all(nodes.map((node) => node.proc.stop()));
    }
  });
});
