/**
 * A gateway in front of three nodes (`--node` three times) against the same
 * gateway in front of one: the gateway process's CPU per request, cold balance
 * queries (answer reuse off, so every request is a call to a node), measured
 * in alternating slices in the same run. Then the time the three-node gateway
 * takes to leave a node that was killed (SIGKILL) while one client keeps
 * asking: from the kill to /readyz listing the node as not eligible, over
 * several kills (the node restarted on its address in between), against the
 * probe interval.
 */
import fs from "node:fs";
import path from "node:path";
import { prepareHome, type BenchHome } from "./benchHome.js";
import { child, cpuSeconds, fmtMs, get, load, profileFlags, record, serverCommand, type Child } from "./benchTools.js";
import { freePort } from "../test/helpers/freePort.js";

const SLICES = 10;
/** A slice's CPU is read from /proc in 10 ms ticks: 3,000 requests make a tick about 2 % of a slice. */
const SLICE_REQUESTS = 3000;
/** Unmeasured requests per gateway first: the JIT's warming (500 left the first slices half-optimized). */
const WARM_UP = 3000;
const KILLS = 6;
const PROBE_INTERVAL_MS = 2000;

async function startNodeAt(home: string, port: number): Promise<Child> {
  const node = child([...serverCommand(), "start", "--home", home, "--api.address", "tcp://127.0.0.1:0", "--rpc.laddr", `tcp://127.0.0.1:${port}`]);
  await node.waitFor(/node RPC:\s+(http:\/\/\S+)/);
  return node;
}

async function startGateway(dir: string, name: string, nodeArgs: string[]): Promise<{ gateway: Child; url: string }> {
  const home = path.join(dir, name);
  fs.mkdirSync(path.join(home, "config"), { recursive: true });
  fs.writeFileSync(path.join(home, "config", "app.toml"), `[api]\nanswer-cache-mb = 0\n[gateway]\nprobe-interval = "${PROBE_INTERVAL_MS}ms"\n`);
  const gateway = child([...serverCommand(profileFlags()), "gateway", "--home", home, ...nodeArgs, "--api.address", "tcp://127.0.0.1:0"]);
  return { gateway, url: (await gateway.waitFor(/REST server: (http:\/\/\S+)/))[1]! };
}

async function readyz(url: string): Promise<{ upstreams: Array<{ address: string; eligible: boolean }> }> {
  return JSON.parse((await get(`${url}/readyz`)).body) as { upstreams: Array<{ address: string; eligible: boolean }> };
}

export async function multiNodeBenchmark(dir: string): Promise<void> {
  console.log("\ngateway in front of three nodes against one: CPU per request, and leaving a killed node");
  const bench: BenchHome = await prepareHome(dir, 2000, 10, 2);
  const homes = [
    bench.home,
    ...[1, 2].map((i) => {
      const copy = path.join(dir, `multi-node-${i}`);
      fs.cpSync(bench.home, copy, { recursive: true });
      return copy;
    }),
  ];
  const ports = await Promise.all(homes.map(() => freePort()));
  const urls = ports.map((port) => `http://127.0.0.1:${port}`);
  const nodes = await Promise.all(homes.map((home, i) => startNodeAt(home, ports[i]!)));
  const one = await startGateway(dir, "gateway-one", ["--node", urls[0]!]);
  const three = await startGateway(
    dir,
    "gateway-three",
    urls.flatMap((url) => ["--node", url]),
  );
  try {
    const { addresses } = bench;
    const pathOf = (i: number) => `/core/bank/v1beta1/balances/${addresses[i % addresses.length]}`;
    for (const side of [one, three]) await load(side.url, pathOf, { amount: WARM_UP });
    const cpu = [0, 0];
    const requests = [0, 0];
    const sides = [one, three];
    for (let slice = 0; slice < SLICES; slice++) {
      const order = slice % 2 === 0 ? [0, 1] : [1, 0];
      for (const s of order) {
        const pid = sides[s]!.gateway.proc.pid!;
        const before = cpuSeconds(pid);
        const run = await load(sides[s]!.url, (i) => pathOf(slice * SLICE_REQUESTS + i), { amount: SLICE_REQUESTS });
        cpu[s]! += cpuSeconds(pid) - before;
        requests[s]! += run.total;
      }
    }
    const perRequest = cpu.map((seconds, s) => (seconds / requests[s]!) * 1e6);
    record({
      subject: "cold balance through a gateway in front of three nodes: gateway CPU per request",
      baseline: "the same through a gateway in front of one node",
      ratio: perRequest[1]! / perRequest[0]!,
      target: "≤ 1.05x (at most 5 % more CPU per request)",
      subjectValue: `${perRequest[1]!.toFixed(0)} µs`,
      baselineValue: `${perRequest[0]!.toFixed(0)} µs`,
      note: `ratio = CPU per request, lower is better; ${requests[1]} and ${requests[0]} requests, ${SLICES} alternating slices, answer reuse off; probes every ${PROBE_INTERVAL_MS} ms`,
    });

    // leaving a killed node, while one client keeps asking
    const leaveMs: number[] = [];
    let asking = true;
    const client = (async () => {
      for (let i = 0; asking; i++) await get(`${three.url}${pathOf(i)}`);
    })();
    for (let kill = 0; kill < KILLS; kill++) {
      const victim = 1 + (kill % 2);
      for (;;) {
        const state = await readyz(three.url);
        if (state.upstreams.every((u) => u.eligible)) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const killedAt = performance.now();
      nodes[victim]!.proc.kill("SIGKILL");
      for (;;) {
        const state = await readyz(three.url);
        if (!state.upstreams[victim]!.eligible) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      leaveMs.push(performance.now() - killedAt);
      const killed = nodes[victim]!.proc;
      if (killed.exitCode === null && killed.signalCode === null) await new Promise((resolve) => killed.once("exit", resolve));
      nodes[victim] = await startNodeAt(homes[victim]!, ports[victim]!);
    }
    asking = false;
    await client;
    const sorted = [...leaveMs].sort((a, b) => a - b);
    const p50 = sorted[Math.floor(sorted.length / 2)]!;
    const p99 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)]!;
    record({
      subject: "time for a three-node gateway to leave a killed node, one client asking (p99)",
      baseline: "the probe interval",
      ratio: p99 / PROBE_INTERVAL_MS,
      target: "≤ 1x (out by the next probe at the latest)",
      subjectValue: fmtMs(p99),
      baselineValue: fmtMs(PROBE_INTERVAL_MS),
      p50,
      p99,
      note: `ratio = time, lower is better; ${KILLS} kills (SIGKILL), the node restarted on its address in between; from the kill to /readyz listing it not eligible, polled every 10 ms`,
    });
  } finally {
    await three.gateway.stop();
    await one.gateway.stop();
    await Promise.all(nodes.map((node) => node.stop()));
  }
}
