/**
 * The baseline of the REST benchmarks: a bare Koa app answering prepared
 * bytes from memory, by path (the same bytes chain-rest answers).
 *
 *   npx tsx bench/bareKoa.ts BODIES.json     (a JSON array of [path, body])
 */
import fs from "node:fs";
import http from "node:http";
import Koa from "koa";

const bodies = new Map<string, string>(JSON.parse(fs.readFileSync(process.argv[2]!, "utf8")) as Array<[string, string]>);
const app = new Koa();
app.use((ctx) => {
  const body = bodies.get(ctx.path);
  ctx.status = body === undefined ? 404 : 200;
  ctx.type = "application/json";
  ctx.body = body ?? "{}";
});
const handle = app.callback();
const server = http.createServer((req, res) => void handle(req, res));
server.listen(0, "127.0.0.1", () => console.log(`listening http://127.0.0.1:${(server.address() as { port: number }).port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
