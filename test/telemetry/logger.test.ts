import { expect } from "chai";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createLogger, flushLogger, logLater } from "../../src/telemetry/logger.js";
import { FLUSH_AFTER_MS, MAX_QUEUED_LINES } from "../../src/telemetry/lineBatch.js";
import { textLine } from "../../src/telemetry/textLine.js";
import { PACKAGE_ROOT } from "../../src/util/paths.js";
import { tempDir } from "../helpers/tempDir.js";

/** Past the batch's wait (a timer: it fires after FLUSH_AFTER_MS, never before). */
const batchWritten = () => new Promise((resolve) => setTimeout(resolve, FLUSH_AFTER_MS + 5));

describe("the logger: lines queued, written together a few milliseconds later", () => {
  let dir: string;
  let file: string;
  let fd: number;
  beforeEach(() => {
    dir = tempDir();
    file = path.join(dir, "out.log");
    fd = fs.openSync(file, "w");
  });
  afterEach(() => fs.closeSync(fd));
  const written = () => fs.readFileSync(file, "utf8");

  it(`writes nothing where a line is logged; the lines come out together ${FLUSH_AFTER_MS} ms after the first`, async () => {
    const logger = createLogger("json", "info", fd);
    logger.info({ status: 200 }, "request");
    logger.info({ status: 404 }, "request");
    await new Promise((resolve) => setImmediate(resolve));
    expect(written()).to.equal("");
    await batchWritten();
    const lines = written()
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((l) => [l.level, l.status, l.msg])).to.deep.equal([
      ["info", 200, "request"],
      ["info", 404, "request"],
    ]);
    expect(lines[0]!.time).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it("text: `[HH:MM:ss.mmm] LEVEL: msg {fields}`, an error's stack on the lines after", async () => {
    const logger = createLogger("text", "info", fd);
    logger.info({ method: "GET", status: 200, height: undefined }, "request");
    logger.warn("plain");
    logger.error({ err: new Error("boom") }, "failed");
    await flushLogger(logger);
    const lines = written().split("\n");
    expect(lines[0]).to.match(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: request \{"method":"GET","status":200\}$/);
    expect(lines[1]).to.match(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: plain$/);
    expect(lines[2]).to.match(/^\[\d\d:\d\d:\d\d\.\d{3}\] ERROR: failed \{"err":\{.*"message":"boom".*\}\}$/);
    expect(lines[3]).to.equal("    Error: boom");
  });

  it(`${MAX_QUEUED_LINES} lines waiting are written at once (the queue's bound), the rest after the wait`, async () => {
    const logger = createLogger("json", "info", fd);
    for (let i = 0; i < MAX_QUEUED_LINES + 10; i++) logger.info({ i }, "line");
    expect(written().trimEnd().split("\n")).to.have.length(MAX_QUEUED_LINES);
    await batchWritten();
    expect(written().trimEnd().split("\n")).to.have.length(MAX_QUEUED_LINES + 10);
  });

  for (const format of ["json", "text"] as const) {
    it(`logLater (${format}): the line is made from its values when written, in its place among the others`, async () => {
      const logger = createLogger(format, "info", fd);
      logger.info("before");
      logLater(logger, "request", { route: "/balances/{address}", status: 200, height: undefined, cached: true });
      logger.warn({ n: 1 }, "after");
      await flushLogger(logger);
      const lines = written().trimEnd().split("\n");
      if (format === "json") {
        const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
        expect(parsed.map((l) => l.msg)).to.deep.equal(["before", "request", "after"]);
        expect(parsed[1]).to.deep.include({ level: "info", route: "/balances/{address}", status: 200, cached: true, msg: "request" });
        expect(parsed[1]!.time).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        expect(Object.keys(parsed[1]!)).to.deep.equal(["level", "time", "route", "status", "cached", "msg"]);
      } else {
        expect(lines[0]).to.match(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: before$/);
        expect(lines[1]).to.match(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: request \{"route":"\/balances\/\{address\}","status":200,"cached":true\}$/);
        expect(lines[2]).to.match(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: after \{"n":1\}$/);
      }
    });
  }

  it("logLater keeps nothing when the logger's level leaves info out", async () => {
    const logger = createLogger("json", "warn", fd);
    logLater(logger, "request", { status: 200 });
    logger.warn("shown");
    await flushLogger(logger);
    expect(
      written()
        .trimEnd()
        .split("\n")
        .map((line) => (JSON.parse(line) as { msg: string }).msg),
    ).to.deep.equal(["shown"]);
  });

  describe("every line is written before the process exits", () => {
    const script = (ending: string) => `
      import { createLogger, logLater } from ${JSON.stringify(path.join(PACKAGE_ROOT, "src/telemetry/logger.ts"))};
      const logger = createLogger(process.argv[2]);
      logger.info({ n: 1 }, "first");
      logLater(logger, "last", { n: 2 });
      ${ending}
    `;
    const run = (format: string, ending: string) => {
      const file = path.join(tempDir(), "exit.mts");
      fs.writeFileSync(file, script(ending));
      return spawnSync(process.execPath, ["--import", "tsx", file, format], { encoding: "utf8" });
    };
    for (const [how, ending, code] of [
      ["process.exit", "process.exit(3);", 3],
      ["a fatal error (uncaught)", 'throw new Error("fatal");', 1],
      [
        "SIGTERM with an exit handler (as onShutdown)",
        'process.on("SIGTERM", () => process.exit(0)); process.kill(process.pid, "SIGTERM"); setTimeout(() => {}, 5000);',
        0,
      ],
    ] as const) {
      for (const format of ["text", "json"]) {
        it(`${how}, ${format}`, () => {
          const result = run(format, ending);
          expect(result.status, result.stderr).to.equal(code);
          const lines = result.stdout.trimEnd().split("\n");
          expect(lines).to.have.length(2);
          expect(lines[1]).to.include("last");
        });
      }
    }
  });
});

describe("textLine: one of pino's JSON lines as readable text", () => {
  const at = new Date(2026, 10, 26, 14, 47, 57, 62).getTime();
  const cases: Array<[string, string]> = [
    [
      `{"level":"info","time":${at},"route":"/balances/{address}","status":200,"msg":"request"}\n`,
      'INFO: request {"route":"/balances/{address}","status":200}',
    ],
    [`{"level":"warn","time":${at},"msg":"plain"}\n`, "WARN: plain"],
    [`{"level":"info","time":${at},"msgs":["/a.Msg","/b.Msg"],"height":2}\n`, 'INFO:  {"msgs":["/a.Msg","/b.Msg"],"height":2}'],
    [
      `{"level":"info","time":${at},"note":"say \\"hi\\", \\"msg\\":\\"x\\"","msg":"quote \\" and \\\\"}\n`,
      'INFO: quote " and \\ {"note":"say \\"hi\\", \\"msg\\":\\"x\\""}',
    ],
    [`{"level":"info","time":${at},"inner":{"msg":"nested"},"msg":"outer"}\n`, 'INFO: outer {"inner":{"msg":"nested"}}'],
    [`{"level":"info","time":${at},"inner":{"msg":"nested"}}\n`, 'INFO:  {"inner":{"msg":"nested"}}'],
  ];
  for (const [json, text] of cases) {
    it(`${json.trim()} → ${text}`, () => {
      expect(textLine(json)).to.equal(`[14:47:57.062] ${text}\n`);
    });
  }

  it("a line that is not a JSON object comes out as it is", () => {
    expect(textLine("not json\n")).to.equal("not json\n");
    expect(textLine("[1,2]\n")).to.equal("[1,2]\n");
  });
});
