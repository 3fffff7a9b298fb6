/**
 * Broadcast throughput: bank sends signed with cosmjs (SIGN_MODE_DIRECT) from
 * 50 funded accounts, posted to POST /core/tx/v1beta1/txs in SYNC mode (each
 * account sends its next transaction when the previous one is accepted), until
 * every one is committed; inclusion time from each broadcast to the NewBlock
 * event of the block that holds it (the node's websocket). Three rounds, one
 * after the other: the first, right after the node's start (its own row: the
 * JIT compiles the transaction path meanwhile), and the next two together,
 * the target row (a round lasts 1–2 s: one alone is at the mercy of whatever
 * else the machine does).
 */
import { createHash } from "node:crypto";
import http from "node:http";
import WebSocket from "ws";
import { TEST_MNEMONIC } from "../test/helpers/devNode.js";
import { directTx, send, testSigner } from "../test/helpers/txSigner.js";
import type { BenchHome } from "./benchHome.js";
import { fmtMs, post, record, startChainRest } from "./benchTools.js";
import { websocketText } from "../src/util/websocketText.js";

const PER_ACCOUNT = 20;
const ROUNDS = 3;
const TARGET = 500;

export async function broadcastBenchmark(bench: BenchHome): Promise<void> {
  const senders = bench.keyed;
  console.log(`\nbroadcast: ${senders} accounts x ${PER_ACCOUNT} bank sends, SYNC mode, until committed`);
  const signers = await Promise.all([...Array(senders).keys()].map((i) => testSigner(TEST_MNEMONIC, i)));
  const txs = await Promise.all(
    signers.map(async (signer, account) => {
      const to = signers[(account + 1) % senders]!.address;
      const own: Uint8Array[] = [];
      for (let sequence = 0; sequence < PER_ACCOUNT * ROUNDS; sequence++)
        own.push(await directTx(signer, { messages: [send(signer.address, to, "1")], sequence, accountNumber: account }));
      return own;
    }),
  );
  const hashOf = (tx: Uint8Array) => createHash("sha256").update(tx).digest("hex").toUpperCase();
  const server = await startChainRest(bench.home);
  const connections = new http.Agent({ keepAlive: true, maxSockets: senders }); // one per sender
  const socket = new WebSocket(`${server.rpcUrl.replace("http", "ws")}/websocket`);
  try {
    const sentAt = new Map<string, number>();
    const included = new Map<string, number>();
    const total = senders * PER_ACCOUNT;
    let roundIncluded = () => undefined as void;
    await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
    socket.on("message", (raw) => {
      const message = JSON.parse(websocketText(raw)) as { result?: { data?: { value?: { block?: { data?: { txs?: string[] } } } } } };
      const now = performance.now();
      for (const tx of message.result?.data?.value?.block?.data?.txs ?? []) included.set(hashOf(Buffer.from(tx, "base64")), now);
      if (included.size >= total) roundIncluded();
    });
    socket.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "subscribe", params: { query: "tm.event='NewBlock'" } }));
    await new Promise((resolve) => setTimeout(resolve, 200)); // the subscription is in place

    const rounds: Array<{ rate: number; seconds: number; latencies: number[] }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      sentAt.clear();
      included.clear();
      const done = new Promise<void>((resolve) => (roundIncluded = resolve));
      const start = performance.now();
      await Promise.all(
        txs.map(async (own) => {
          for (const tx of own.slice(round * PER_ACCOUNT, (round + 1) * PER_ACCOUNT)) {
            sentAt.set(hashOf(tx), performance.now());
            const r = await post(
              `${server.restUrl}/core/tx/v1beta1/txs`,
              JSON.stringify({ tx_bytes: Buffer.from(tx).toString("base64"), mode: "BROADCAST_MODE_SYNC" }),
              connections,
            );
            const code = (JSON.parse(r.body) as { tx_response?: { code: number } }).tx_response?.code;
            if (r.status !== 200 || code !== 0) throw new Error(`broadcast: ${r.status} ${r.body}`);
          }
        }),
      );
      await Promise.race([
        done,
        new Promise((_, reject) => setTimeout(() => reject(new Error(`only ${included.size} of ${total} included after 120 s`)), 120_000)),
      ]);
      const seconds = (Math.max(...included.values()) - start) / 1000;
      const latencies = [...sentAt].map(([hash, at]) => included.get(hash)! - at).sort((a, b) => a - b);
      rounds.push({ rate: total / seconds, seconds, latencies });
    }
    const row = (subject: string, { rate, seconds, latencies }: (typeof rounds)[number], note: string, target: string) =>
      record({
        subject,
        baseline: "target",
        ratio: rate / TARGET,
        target,
        subjectValue: `${rate.toFixed(0)} sends/s`,
        baselineValue: `${TARGET} sends/s`,
        p50: latencies[Math.floor(latencies.length / 2)],
        p99: latencies[Math.floor(latencies.length * 0.99)],
        note: `${note}p50/p99 = broadcast to inclusion; last inclusion after ${fmtMs(seconds * 1000)}`,
      });
    // the first round also pays for the JIT compiling the transaction path (start-up is measured on its own)
    row(
      `bank sends committed per second (${total}, SYNC, ${senders} accounts), the first round after the node's start`,
      rounds[0]!,
      "",
      "none: the JIT warming",
    );
    const later = rounds.slice(1);
    const laterSeconds = later.reduce((n, r) => n + r.seconds, 0);
    const together = { rate: (later.length * total) / laterSeconds, seconds: laterSeconds, latencies: later.flatMap((r) => r.latencies).sort((a, b) => a - b) };
    row(
      `the same, rounds 2–${ROUNDS} together`,
      together,
      `rounds 2–${ROUNDS}: ${later.map((r) => r.rate.toFixed(0)).join(", ")} sends/s; `,
      `≥ 1.0x (${TARGET}/s)`,
    );
  } finally {
    socket.close();
    connections.destroy();
    await server.node.stop();
  }
}
