import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { sharedFileReader } from "../../src/util/sharedFileReader.js";
import { tempDir } from "../helpers/tempDir.js";

describe("sharedFileReader (a small file other processes write, read at every request)", () => {
  const dir = tempDir();
  let n = 0;
  const open = (bytes: number) => {
    const file = path.join(dir, `shared-${n++}`);
    fs.writeFileSync(file, Buffer.alloc(bytes));
    return fs.openSync(file, "r+");
  };

  it("sees each write of the file at its next read, with no read of its own in between", () => {
    const fd = open(16);
    const reader = sharedFileReader(fd, 16);
    expect(reader.read()!.readBigUint64LE(0)).to.equal(0n);
    for (const value of [1n, 2n ** 40n + 7n, 3n]) {
      const word = Buffer.alloc(8);
      word.writeBigUint64LE(value, 0);
      fs.writeSync(fd, word, 0, 8, 8); // as another process writes it (pwrite)
      expect(reader.read()!.readBigUint64LE(8)).to.equal(value);
    }
    reader.close();
    reader.close(); // twice is harmless
    fs.closeSync(fd);
  });

  it("says so when the file is shorter than asked, and reads it once it is long enough", () => {
    const fd = open(8);
    const reader = sharedFileReader(fd, 16);
    expect(reader.read()).to.equal(undefined);
    fs.writeSync(fd, Buffer.alloc(16, 1), 0, 16, 0);
    expect(reader.read()).to.deep.equal(Buffer.alloc(16, 1));
    reader.close();
    fs.closeSync(fd);
  });
});
