/**
 * What one request–reply between two processes costs in CPU, the price a
 * `start` worker pays for each read of the node (api.workers): a parent sends
 * messages shaped like a worker's abciQuery call (a batch of one, query bytes
 * as bytes) to a forked child that replies like the node (an AbciQueryResponse),
 * `IN_FLIGHT` at a time, both processes on the same core. Two transports:
 * Node's IPC channel with structured-clone serialization (what the workers
 * use), and a Unix socket carrying length-prefixed v8.serialize frames. With
 * `batched`, the IN_FLIGHT calls leave as one message and come back as one
 * (what the workers' batching does when requests arrive in the same turn).
 *
 *   taskset -c 1 npx tsx bench/channelRoundTrip.ts [ipc|socket] [round trips=20000] [batched]
 */
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";

const IN_FLIGHT = 8;
const args = process.argv.slice(2);

interface Batch {
  kind: "batch";
  messages: Array<{ id: number }>;
}
const call = (ids: number[]): Batch => ({
  kind: "batch",
  messages: ids.map((id) => ({ id, kind: "call", method: "abciQuery", args: ["/cosmos.bank.v1beta1.Query/AllBalances", new Uint8Array(48), undefined] })),
});
const reply = (ids: number[]): Batch => ({
  kind: "batch",
  messages: ids.map((id) => ({
    id,
    kind: "reply",
    result: { code: 0, log: "", info: "", index: 0, key: new Uint8Array(0), value: new Uint8Array(70), height: 1234, codespace: "" },
  })),
});

/** Length-prefixed v8.serialize frames over a socket: write one, and hand each whole one received to `onFrame`. */
function framed(socket: net.Socket, onFrame: (message: Batch) => void): (message: Batch) => void {
  let pending: Buffer = Buffer.alloc(0);
  socket.on("data", (data: Buffer) => {
    pending = pending.length > 0 ? Buffer.concat([pending, data]) : data;
    while (pending.length >= 4 && pending.length >= 4 + pending.readUInt32LE(0)) {
      const length = pending.readUInt32LE(0);
      onFrame(v8.deserialize(pending.subarray(4, 4 + length)) as Batch);
      pending = pending.subarray(4 + length);
    }
  });
  return (message) => {
    const body = v8.serialize(message);
    const head = Buffer.alloc(4);
    head.writeUInt32LE(body.length);
    socket.write(Buffer.concat([head, body]));
  };
}

const cpuMicros = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};

if (args[0] === "child") {
  const [, transport, socketPath] = args;
  let cpuAtFirst: number | undefined; // the child's start (module loading) left out
  const answer = (batch: Batch) => {
    cpuAtFirst ??= cpuMicros();
    return reply(batch.messages.map((message) => message.id));
  };
  if (transport === "ipc") process.on("message", (batch: Batch) => process.send!(answer(batch)));
  else {
    const socket = net.connect(socketPath!);
    const send = framed(socket, (batch) => send(answer(batch)));
  }
  process.on("disconnect", () => {
    // the channel is gone: the CPU goes back in a file
    fs.writeFileSync(`${socketPath}.cpu-${process.pid}`, String(cpuMicros() - (cpuAtFirst ?? 0)));
    process.exit(0);
  });
} else {
  const mode = args[0] ?? "ipc";
  const roundTrips = Number(args[1] ?? 20_000);
  const batched = args[2] === "batched";
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "channel-round-trip-"));
  const socketPath = path.join(dir, "socket");
  const server = net.createServer();
  if (mode === "socket") await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  const childProcess: ChildProcess = fork(new URL(import.meta.url).pathname, ["child", mode, socketPath], {
    serialization: "advanced",
    execArgv: process.execArgv,
  });
  const waiting = new Map<number, () => void>();
  const settle = (batch: Batch) => {
    for (const { id } of batch.messages) {
      waiting.get(id)?.();
      waiting.delete(id);
    }
  };
  let send: (message: Batch) => void;
  if (mode === "socket") send = framed(await new Promise<net.Socket>((resolve) => server.once("connection", resolve)), settle);
  else {
    childProcess.on("message", settle);
    send = (message) => childProcess.send(message);
  }
  const cpuBefore = cpuMicros();
  let next = 0;
  const ask = (ids: number[]) => {
    const replies = ids.map((id) => new Promise<void>((resolve) => waiting.set(id, resolve)));
    send(call(ids));
    return Promise.all(replies);
  };
  if (batched) for (; next < roundTrips; next += IN_FLIGHT) await ask(Array.from({ length: IN_FLIGHT }, (_, i) => next + i));
  else {
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < roundTrips) await ask([next++]);
      }),
    );
  }
  const parent = (cpuMicros() - cpuBefore) / roundTrips;
  const exited = new Promise((resolve) => childProcess.on("exit", resolve));
  childProcess.disconnect();
  await exited;
  const child = Number(fs.readFileSync(`${socketPath}.cpu-${childProcess.pid}`, "utf8")) / roundTrips;
  console.log(
    `${mode}${batched ? ", batched" : ""}: ${roundTrips} round trips, ${IN_FLIGHT} in flight; CPU a round trip: sender ${parent.toFixed(1)} µs, replier ${child.toFixed(1)} µs; load average ${os.loadavg()[0]!.toFixed(1)}`,
  );
  server.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
