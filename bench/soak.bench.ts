/**
 * Soak: `chain-rest start` under a mixed load for a long time, its resident
 * memory read from /proc every few seconds. The load, all at once:
 *  - queries over ~25 routes of both families (balances, accounts, params,
 *    validators, blocks, txs by hash and by event, pinned heights, pages);
 *  - bank sends signed with real keys (cosmjs, SIGN_MODE_DIRECT), every other
 *    one a multi-send to five accounts, in SYNC mode, each sender sending its
 *    next when the previous is accepted and its next slot has come;
 *  - websocket subscriptions to NewBlock and Tx events, each opened, read
 *    for a few events and closed, some closed without unsubscribing.
 * The load is paced, the same from the first minute to the last: SEND_RATE
 * sends and QUERY_RATE queries a minute (slots spread evenly over the
 * clients; one that falls behind takes its next slot at once, without bursts
 * to catch up). Unpaced, the rate followed the load generator's own CPU (at
 * first a quarter of its later rate), so RSS at 2 minutes was taken under a
 * lighter load than at the end.
 * The row: RSS at the end against RSS after 2 minutes (target: within 20 %).
 *
 *   npm run bench -- soak [--minutes N]       (default 30; also npx tsx bench/run.ts soak)
 */
import http from "node:http";
import WebSocket from "ws";
import { TEST_MNEMONIC } from "../test/helpers/devNode.js";
import { directTx, send, testSigners, type TestSigner } from "../test/helpers/txSigner.js";
import { websocketText } from "../src/util/websocketText.js";
import { editConfig, type BenchHome } from "./benchHome.js";
import { memoryOf, record, startChainRest } from "./benchTools.js";
import { memorySplit, splitText, type MemorySplit } from "./soakMemorySplit.js";

const QUERY_CLIENTS = 8;
const SENDERS = 20;
const SOCKET_CLIENTS = 2;
const SAMPLE_MS = 5_000;
/** Sends a minute, all senders together (about the rate an unpaced run reached once warm, on a quiet machine). */
const SEND_RATE = 400;
/** Queries a minute, all query clients together. */
const QUERY_RATE = 600;
const EARLY_MINUTES = 2;

/** RSS samples of a soak, in MB, with the minute each was taken. */
export interface SoakSamples {
  samples: Array<{ minute: number; rssMb: number; split?: MemorySplit }>;
  sends: number;
  queries: number;
  subscriptions: number;
  socketFailures: number;
}

/** `--minutes N` from the command line, else 30. */
export function soakMinutes(argv: string[]): number {
  const at = argv.indexOf("--minutes");
  const minutes = at >= 0 ? Number(argv[at + 1]) : 30;
  if (!(minutes > EARLY_MINUTES)) throw new Error(`--minutes must be a number above ${EARLY_MINUTES}`);
  return minutes;
}

export async function soakBenchmark(bench: BenchHome, minutes: number): Promise<SoakSamples> {
  console.log(`\nsoak: ${minutes} min of queries, bank sends and websocket subscriptions against chain-rest start`);
  const signers = await testSigners(TEST_MNEMONIC, SENDERS);
  // /metrics tells the memory apart (V8 heap, kept answers and scans, LevelDB's own estimate)
  editConfig(bench.home, "app.toml", "enabled = false", "enabled = true");
  editConfig(bench.home, "app.toml", "prometheus-retention-time = 0", "prometheus-retention-time = 60");
  const server = await startChainRest(bench.home);
  const agent = new http.Agent({ keepAlive: true, maxSockets: QUERY_CLIENTS + SENDERS });
  // the samples' /metrics on a fresh connection each: a kept one, idle for SAMPLE_MS = Node's 5 s
  // keepAliveTimeout, was at times closed by the server as it was reused (a split of "?")
  const meter = new http.Agent({ keepAlive: false, maxSockets: 1 });
  const until = Date.now() + minutes * 60_000;
  const running = () => Date.now() < until;
  const counts = { sends: 0, queries: 0, subscriptions: 0, socketFailures: 0 };
  const sentHashes: string[] = [];
  const samples: SoakSamples["samples"] = [];
  const started = Date.now();
  const sample = async () => {
    const rssMb = memoryOf(server.node.proc.pid!).rssMb;
    const at = { minute: (Date.now() - started) / 60_000, rssMb, split: await memorySplit(server.node.proc.pid!, server.restUrl, meter) };
    samples.push(at);
    return at;
  };
  const sampler = setInterval(() => {
    void sample().then((at) => {
      if (samples.length % 12 === 0)
        console.log(
          `  ${at.minute.toFixed(1)} min: RSS ${at.rssMb.toFixed(0)} MB (${splitText(at.split)}), ${counts.sends} sends, ${counts.queries} queries, ${counts.subscriptions} subscriptions`,
        );
    });
  }, SAMPLE_MS);
  try {
    await sample();
    const validator = (
      JSON.parse((await call(agent, `${server.restUrl}/core/staking/v1beta1/validators`)).body) as { validators: Array<{ operator_address: string }> }
    ).validators[0]!.operator_address;
    const queryPaths = routeMix(
      signers.map((s) => s.address),
      validator,
      sentHashes,
    );
    const queries = [...Array(QUERY_CLIENTS).keys()].map(async (client) => {
      const slot = pacer(QUERY_RATE / QUERY_CLIENTS, client / QUERY_CLIENTS);
      for (let i = client; running(); i += QUERY_CLIENTS) {
        await slot();
        const { path, headers } = queryPaths(i);
        const r = await call(agent, `${server.restUrl}${path}`, { headers });
        if (r.status >= 500) throw new Error(`${path}: ${r.status} ${r.body}`);
        counts.queries++;
      }
    });
    const sends = signers.map((signer, account) => sendLoop(server.restUrl, agent, signers, signer, account, running, counts, sentHashes));
    const sockets = [...Array(SOCKET_CLIENTS).keys()].map(async (client) => {
      for (let i = 0; running(); i++) {
        // a connection reset (the server busy past a deadline) is counted, and the client subscribes again
        await subscribeAndClose(server.rpcUrl, i % 2 === client % 2 ? "tm.event='NewBlock'" : "tm.event='Tx'", i % 3 === 0).then(
          () => counts.subscriptions++,
          () => counts.socketFailures++,
        );
      }
    });
    await Promise.all([...queries, ...sends, ...sockets]);
    await sample();
  } finally {
    clearInterval(sampler);
    agent.destroy();
    meter.destroy();
    await server.node.stop();
  }
  // glibc's allocator settings (deploy/ may set them) reach the server through the environment: the row names them
  const allocator = Object.entries(process.env)
    .filter(([name]) => name.startsWith("MALLOC_"))
    .map(([name, value]) => `${name}=${value}`)
    .join(", ");
  const early = samples.find((s) => s.minute >= EARLY_MINUTES)!;
  const end = samples.at(-1)!;
  const peak = Math.max(...samples.map((s) => s.rssMb));
  record({
    subject: `RSS after ${minutes} min of mixed load (queries, bank sends, websocket subscriptions)${allocator ? `, ${allocator}` : ""}`,
    baseline: `RSS after ${EARLY_MINUTES} min`,
    ratio: early.rssMb / end.rssMb,
    target: "≥ 0.83x (the end within 20 % of 2 min)",
    subjectValue: `${end.rssMb.toFixed(0)} MB`,
    baselineValue: `${early.rssMb.toFixed(0)} MB`,
    note: `ratio = RSS at ${EARLY_MINUTES} min / RSS at the end; paced at ${SEND_RATE} sends and ${QUERY_RATE} queries a minute; at the start ${samples[0]!.rssMb.toFixed(0)} MB, peak ${peak.toFixed(0)} MB; ${counts.sends} sends committed or accepted, ${counts.queries} queries, ${counts.subscriptions} subscriptions (${counts.socketFailures} failed); at ${EARLY_MINUTES} min ${splitText(early.split)}; at the end ${splitText(end.split)}`,
  });
  return { samples, ...counts };
}

/** The i-th query of the mix: ~25 routes of both families, some pinned to a height, some paged. */
function routeMix(addresses: string[], validator: string, sentHashes: string[]): (i: number) => { path: string; headers?: Record<string, string> } {
  const routes: Array<(a: string, i: number) => string> = [
    (a) => `/core/bank/v1beta1/balances/${a}`,
    (a) => `/core/bank/v1beta1/balances/${a}/uhub`,
    (a) => `/core/auth/v1beta1/accounts/${a}`,
    () => `/core/auth/v1beta1/accounts?pagination.limit=20`,
    () => `/core/bank/v1beta1/params`,
    () => `/core/bank/v1beta1/supply`,
    () => `/core/staking/v1beta1/validators`,
    () => `/core/staking/v1beta1/validators/${validator}/delegations`,
    (a) => `/core/staking/v1beta1/delegations/${a}`,
    (a) => `/core/distribution/v1beta1/delegators/${a}/rewards`,
    () => `/core/distribution/v1beta1/community_pool`,
    () => `/core/gov/v1beta1/proposals`,
    () => `/core/slashing/v1beta1/signing_infos`,
    () => `/core/staking/v1beta1/pool`,
    () => `/core/tx/v1beta1/txs/${sentHashes.at(-1) ?? "00".repeat(32)}`,
    (a) => `/core/tx/v1beta1/txs?events=${encodeURIComponent(`message.sender='${a}'`)}&pagination.limit=5`,
    () => `/blocks/latest`,
    () => `/node_info`,
    (a) => `/bank/balances/${a}`,
    (a) => `/auth/accounts/${a}`,
    () => `/staking/validators`,
    (a) => `/txs?message.sender=${a}&limit=5`,
    () => `/txs/${sentHashes.at(-1) ?? "00".repeat(32)}`,
    () => `/distribution/parameters`,
    () => `/core/gov/v1beta1/params/deposit`,
  ];
  return (i) => {
    const address = addresses[i % addresses.length]!;
    const path = routes[i % routes.length]!(address, i);
    // every seventh request at an earlier height (within the kept ones while the chain runs)
    return i % 7 === 3 ? { path, headers: { "x-cosmos-block-height": "2" } } : { path };
  };
}

/** One sender: the next send when the previous is accepted; every other a multi-send to five accounts. */
async function sendLoop(
  restUrl: string,
  agent: http.Agent,
  signers: TestSigner[],
  signer: TestSigner,
  account: number,
  running: () => boolean,
  counts: { sends: number },
  sentHashes: string[],
): Promise<void> {
  let sequence = 0;
  const slot = pacer(SEND_RATE / signers.length, account / signers.length);
  for (let n = 0; running(); n++) {
    await slot();
    const to = [1, 2, 3, 4, 5].map((k) => signers[(account + k) % signers.length]!.address);
    const messages = n % 2 === 0 ? [send(signer.address, to[0]!, "1")] : [multiSend(signer.address, to)];
    const tx = await directTx(signer, { messages, sequence, accountNumber: account });
    const r = await call(agent, `${restUrl}/core/tx/v1beta1/txs`, {
      method: "POST",
      body: JSON.stringify({ tx_bytes: Buffer.from(tx).toString("base64"), mode: "BROADCAST_MODE_SYNC" }),
    });
    const answer = JSON.parse(r.body) as { tx_response?: { code: number; txhash: string; raw_log: string } };
    const code = answer.tx_response?.code;
    if (r.status === 200 && code === 0) {
      sequence++;
      counts.sends++;
      sentHashes.push(answer.tx_response!.txhash);
      if (sentHashes.length > 100) sentHashes.shift();
    } else if (code === 19) {
      sequence++; // "tx already exists in cache": it was accepted before a connection reset hid the answer
    } else if (code === 32) {
      // a sequence mismatch (a block was being made): ask the chain for the expected one
      sequence = Number(/expected (\d+)/.exec(answer.tx_response!.raw_log)?.[1] ?? sequence);
    } else if (r.status === 503 || code === 20) {
      await new Promise((resolve) => setTimeout(resolve, 200)); // mempool full: back off
    } else throw new Error(`broadcast: ${r.status} ${r.body}`);
  }
}

/**
 * Waits for a client's next slot: `perMinute` slots a minute, the first after `phase` (0…1) of an
 * interval, so that clients of one kind spread out. A client that is late takes its slot at once and
 * the next one an interval later (no burst to catch up).
 */
function pacer(perMinute: number, phase: number): () => Promise<void> {
  const interval = 60_000 / perMinute;
  let next = Date.now() + phase * interval;
  return async () => {
    const wait = next - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    next = Math.max(next, Date.now()) + interval;
  };
}

function multiSend(from: string, to: string[]) {
  return {
    typeUrl: "/core.bank.v1beta1.MsgMultiSend",
    value: {
      inputs: [{ address: from, coins: [{ denom: "uhub", amount: String(to.length) }] }],
      outputs: to.map((address) => ({ address, coins: [{ denom: "uhub", amount: "1" }] })),
    },
  };
}

/** A websocket opened, subscribed to `query`, read for two events (or 3 s), then closed, unsubscribed first or not. */
async function subscribeAndClose(rpcUrl: string, query: string, unsubscribeFirst: boolean): Promise<void> {
  const socket = new WebSocket(`${rpcUrl.replace("http", "ws")}/websocket`);
  try {
    // a listener for the socket's whole life: a reset after `open` would otherwise end the bench
    const failed = new Promise((_, reject) => socket.on("error", reject));
    failed.catch(() => undefined);
    await Promise.race([new Promise((resolve) => socket.once("open", resolve)), failed]);
    let events = 0;
    const twoEvents = new Promise<void>((resolve) => {
      socket.on("message", (raw) => {
        const message = JSON.parse(websocketText(raw)) as { result?: { data?: unknown } };
        if (message.result?.data !== undefined && ++events >= 2) resolve();
      });
    });
    socket.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "subscribe", params: { query } }));
    await Promise.race([twoEvents, new Promise((resolve) => setTimeout(resolve, 3_000))]);
    if (unsubscribeFirst) socket.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "unsubscribe", params: { query } }));
  } finally {
    socket.close();
    await new Promise((resolve) => (socket.readyState === WebSocket.CLOSED ? resolve(undefined) : socket.once("close", resolve)));
  }
}

/**
 * One request on a kept-alive connection; asked again on a new one when the server had just
 * closed the connection it went out on (its idle timeout met the request: nothing was answered).
 */
async function call(
  agent: http.Agent,
  url: string,
  options: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await callOnce(agent, url, options);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ECONNRESET" || attempt === 3) throw err;
    }
  }
}

function callOnce(
  agent: http.Agent,
  url: string,
  options: { method?: string; body?: string; headers?: Record<string, string> },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = { ...(options.body ? { "content-type": "application/json" } : {}), ...options.headers };
    const req = http.request(url, { method: options.method ?? "GET", headers, agent }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on("error", reject);
    req.end(options.body);
  });
}
