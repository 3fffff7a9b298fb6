/**
 * What `chain-rest gateway --node` adds in front of a node: the p50 time of a
 * balance query through the gateway (REST → JSON-RPC abci_query → proto3 JSON)
 * against the same abci_query sent straight to the node's RPC. One request at
 * a time over kept-alive connections, another account each request (so no
 * answer is reused), both in the same run, in turns of 100 requests.
 *
 * The gateway is another process, so each of its requests crosses one more
 * loopback hop than the straight call. A second baseline measures that hop
 * alone: the same abci_query through a pass-through proxy that does no work
 * (passThroughProxy.ts), so gateway / proxy is what the gateway's own work costs.
 */
import path from "node:path";
import { Codec } from "../src/codec/codec.js";
import type { BenchHome } from "./benchHome.js";
import { child, serverCommand, fmtMs, get, interleavedTimings, post, profileFlags, record, startChainRest, timings } from "./benchTools.js";

const REQUESTS = 3000;
/** The three are measured in turns of this many requests each (a load that changes meanwhile falls on all three). */
const BLOCK = 100;
const METHOD = "/core.bank.v1beta1.Query/AllBalances";

export async function gatewayBenchmark(bench: BenchHome, dir: string): Promise<void> {
  console.log(`\ngateway --node against the node's RPC (${REQUESTS} sequential requests each)`);
  const Request = new Codec().type("core.bank.v1beta1.QueryAllBalancesRequest");
  const { addresses } = bench;
  const server = await startChainRest(bench.home);
  const gateway = child([
    ...serverCommand(profileFlags()),
    "gateway",
    "--node",
    server.rpcUrl,
    "--home",
    path.join(dir, "gateway-home"),
    "--api.address",
    "tcp://127.0.0.1:0",
  ]);
  const proxy = child(["--import", "tsx", path.join(import.meta.dirname, "passThroughProxy.ts"), server.rpcUrl]);
  try {
    const restUrl = (await gateway.waitFor(/REST server: (http:\/\/\S+)/))[1]!;
    const proxyUrl = (await proxy.waitFor(/listening (http:\/\/\S+)/))[1]!;
    const abciQuery = async (url: string, i: number) => {
      const data = Buffer.from(Request.encode({ address: addresses[i % addresses.length]! }).finish()).toString("hex");
      const r = await post(url, JSON.stringify({ jsonrpc: "2.0", id: i, method: "abci_query", params: { path: METHOD, data, height: "0", prove: false } }));
      const code = (JSON.parse(r.body) as { result?: { response?: { code?: number } } }).result?.response?.code ?? 0;
      if (r.status !== 200 || code !== 0) throw new Error(`abci_query: ${r.status} ${r.body}`);
    };
    const direct = (i: number) => abciQuery(server.rpcUrl, i);
    const viaProxy = (i: number) => abciQuery(proxyUrl, i);
    const viaGateway = async (i: number) => {
      const r = await get(`${restUrl}/core/bank/v1beta1/balances/${addresses[i % addresses.length]}`);
      if (r.status !== 200) throw new Error(`gateway: ${r.status} ${r.body}`);
    };
    await timings(300, (i) => direct(90_000 + i)); // warm both paths
    await timings(300, (i) => viaProxy(92_000 + i));
    await timings(300, (i) => viaGateway(95_000 + i));
    const [rpc, hop, rest] = await interleavedTimings(REQUESTS, BLOCK, [(i) => direct(i), (i) => viaProxy(2 * REQUESTS + i), (i) => viaGateway(REQUESTS + i)]);
    record({
      subject: "balance through gateway --node (p50)",
      baseline: "same abci_query straight to the node's RPC (p50)",
      ratio: rest.p50 / rpc.p50,
      target: "≤ 1.10x (grpc-gateway: ≈ 1.14x)",
      subjectValue: fmtMs(rest.p50),
      baselineValue: fmtMs(rpc.p50),
      p50: rest.p50,
      p99: rest.p99,
      note: "ratio = time, lower is better",
    });
    record({
      subject: "abci_query through a pass-through proxy: the extra hop alone (p50)",
      baseline: "same abci_query straight to the node's RPC (p50)",
      ratio: hop.p50 / rpc.p50,
      target: "(the floor of a separate process)",
      subjectValue: fmtMs(hop.p50),
      baselineValue: fmtMs(rpc.p50),
      p50: hop.p50,
      p99: hop.p99,
      note: "ratio = time, lower is better",
    });
    record({
      subject: "balance through gateway --node, against the extra hop (p50)",
      baseline: "same abci_query through the pass-through proxy (p50)",
      ratio: rest.p50 / hop.p50,
      target: "(the gateway's own work)",
      subjectValue: fmtMs(rest.p50),
      baselineValue: fmtMs(hop.p50),
      p50: rest.p50,
      p99: rest.p99,
      note: "ratio = time, lower is better",
    });
  } finally {
    await proxy.stop();
    await gateway.stop();
    await server.node.stop();
  }
}
