import { expect } from "chai";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createLogger, flushLogger } from "../../src/telemetry/logger.js";
import { MAX_QUEUED_LINES } from "../../src/telemetry/lineBatch.js";
import { PACKAGE_ROOT } from "../../src/util/paths.js";
import { tempDir } from "../helpers/tempDir.js";

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe("the logger: lines queued in a turn, written together after it", () => {
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

  it("writes nothing where a line is logged; the turn's lines come out once its I/O is handled", async () => {
    const logger = createLogger("json", "info", fd);
    logger.info({ status: 200 }, "request");
    logger.info({ status: 404 }, "request");
    expect(written()).to.equal("");
    await nextTurn();
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

  it(`a turn that logs ${MAX_QUEUED_LINES} lines has them written at once (the queue's bound), the rest after the turn`, async () => {
    const logger = createLogger("json", "info", fd);
    for (let i = 0; i < MAX_QUEUED_LINES + 10; i++) logger.info({ i }, "line");
    expect(written().trimEnd().split("\n")).to.have.length(MAX_QUEUED_LINES);
    await nextTurn();
    expect(written().trimEnd().split("\n")).to.have.length(MAX_QUEUED_LINES + 10);
  });

  describe("every line is written before the process exits", () => {
    const script = (ending: string) => `
      import { createLogger } from ${JSON.stringify(path.join(PACKAGE_ROOT, "src/telemetry/logger.ts"))};
      const logger = createLogger(process.argv[2]);
      logger.info({ n: 1 }, "first");
      logger.info({ n: 2 }, "last");
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
