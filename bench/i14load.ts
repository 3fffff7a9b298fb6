import autocannon from "autocannon";
import fs from "node:fs";
const [url, home, mode, seconds] = process.argv.slice(2);
const genesis = JSON.parse(fs.readFileSync(`${home}/config/genesis.json`, "utf8"));
const addresses: string[] = genesis.app_state.bank.balances.map((b: { address: string }) => b.address);
let i = 0;
const result = await autocannon({
  url, connections: 20, duration: Number(seconds ?? 10),
  requests: [{ setupRequest: (req: any) => ({ ...req, path: mode === "params" ? "/core/bank/v1beta1/params" : `/core/bank/v1beta1/balances/${mode === "hot" ? addresses[0] : addresses[i++ % addresses.length]}` }) }],
});
console.log(mode, "total", result.requests.total, "req/s", result.requests.average, "p50", result.latency.p50, "p99", result.latency.p99, "non2xx", result.non2xx);
