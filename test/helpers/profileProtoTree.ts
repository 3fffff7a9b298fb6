import fs from "node:fs";
import path from "node:path";
import type { WordMap } from "../../src/names/wordMap.js";
import { profileFileName } from "../../src/tables/export/protoFiles.js";
import { PROTO_DIR } from "../../src/util/paths.js";
import { writeFile } from "./tempDir.js";

// a string, a comment, or a dotted name (absolute or not): only the names are renamed
const TOKENS = /"(?:[^"\\\n]|\\.)*"|\/\/[^\n]*|\/\*[\s\S]*?\*\/|\.?[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+/g;

/**
 * proto/ as its text would read in a naming profile: package statements,
 * import paths and every dotted type name renamed by the profile's package
 * map, nothing else touched, so that protoc's name resolution (relative names
 * looked up scope by scope) meets the profile's packages as they are.
 */
export function writeProfileProtoTree(map: WordMap, dir: string): void {
  for (const name of (fs.readdirSync(PROTO_DIR, { recursive: true }) as string[]).filter((n) => n.endsWith(".proto"))) {
    const text = fs.readFileSync(path.join(PROTO_DIR, name), "utf8");
    const renamed = text
      .replace(/^import\s+"([^"]+)";/gm, (_line, file: string) => `import "${profileFileName(file, map)}";`)
      .replace(TOKENS, (token) => {
        if (token.startsWith('"') || token.startsWith("/")) return token;
        const absolute = token.startsWith(".");
        const renamedName = map.protoName(absolute ? token.slice(1) : token);
        return absolute ? `.${renamedName}` : renamedName;
      });
    writeFile(dir, profileFileName(name.split(path.sep).join("/"), map), renamed);
  }
}
