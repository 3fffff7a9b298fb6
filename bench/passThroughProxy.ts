/**
 * The floor of the gateway benchmark: a pass-through HTTP proxy in its own
 * process, in front of the node's RPC, doing no work — each request is
 * forwarded as it came over one kept-alive connection and the answer is sent
 * back as it came. Its cost over a straight call is the extra loopback hop
 * (and one more process) alone.
 *
 *   npx tsx bench/passThroughProxy.ts RPC_URL
 */
import http from "node:http";

const target = new URL(process.argv[2]!);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const server = http.createServer((req, res) => {
  const upstream = http.request({ hostname: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers, agent }, (answer) => {
    res.writeHead(answer.statusCode!, answer.headers);
    answer.pipe(res);
  });
  upstream.on("error", () => res.writeHead(502).end());
  req.pipe(upstream);
});
server.listen(0, "127.0.0.1", () => console.log(`listening http://127.0.0.1:${(server.address() as { port: number }).port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
