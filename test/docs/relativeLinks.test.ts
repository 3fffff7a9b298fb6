import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { PACKAGE_ROOT } from "../../src/util/paths.js";

/**
 * Pages other branches write, linked from the README before they land. The merger empties this
 * list once they exist; a path listed here that exists fails the test, so the list cannot go stale.
 */
const PENDING_PAGES = new Set<string>([]);

/** The markdown a reader follows: the front door, the contributor's pages and everything under docs/. */
function documents(): string[] {
  const pages = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md", "bench/README.md"];
  const walk = (folder: string): void => {
    for (const entry of fs.readdirSync(path.join(PACKAGE_ROOT, folder), { withFileTypes: true })) {
      const relative = path.posix.join(folder, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith(".md")) pages.push(relative);
    }
  };
  walk("docs");
  return pages;
}

/** Text outside fenced code blocks and inline code, where a link is a link. */
function prose(text: string): string {
  return text.replace(/^```[^\n]*\n[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchor of a heading: lower case, punctuation other than - and _ dropped, spaces as -. */
function anchor(heading: string): string {
  return heading
    .replace(/`/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, "")
    .replace(/ /g, "-");
}

function anchorsOf(file: string): Set<string> {
  const text = prose(fs.readFileSync(path.join(PACKAGE_ROOT, file), "utf8"));
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1]!)));
}

/** Every [text](target) whose target is not a URL: a file path, optionally with #anchor, or a bare #anchor. */
function relativeLinks(file: string): string[] {
  const text = prose(fs.readFileSync(path.join(PACKAGE_ROOT, file), "utf8"));
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe("documentation links", () => {
  const pages = documents();

  it("finds the README and pages under docs/", () => {
    expect(pages).to.include.members(["README.md", "docs/route-table-language.md", "docs/design/request-flow.md"]);
  });

  for (const page of pages) {
    it(`every relative link in ${page} reaches a file and a heading`, () => {
      const broken: string[] = [];
      for (const link of relativeLinks(page)) {
        const [target, fragment] = link.split("#", 2) as [string, string | undefined];
        const file = target === "" ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), target));
        if (PENDING_PAGES.has(file)) continue;
        if (!fs.existsSync(path.join(PACKAGE_ROOT, file))) broken.push(`${link}: no file ${file}`);
        else if (fragment !== undefined && file.endsWith(".md") && !anchorsOf(file).has(fragment)) broken.push(`${link}: no heading #${fragment} in ${file}`);
      }
      expect(broken, `${page} has broken links`).to.deep.equal([]);
    });
  }

  it("every docs page a source comment points to exists", () => {
    const missing: string[] = [];
    for (const dir of ["src", "bench", "scripts"]) {
      for (const file of fs.readdirSync(path.join(PACKAGE_ROOT, dir), { recursive: true, encoding: "utf8" })) {
        if (!file.endsWith(".ts")) continue;
        const text = fs.readFileSync(path.join(PACKAGE_ROOT, dir, file), "utf8");
        for (const [pointer] of text.matchAll(/\bdocs\/[\w./-]+\.md\b/g)) {
          if (!fs.existsSync(path.join(PACKAGE_ROOT, pointer))) missing.push(`${dir}/${file}: ${pointer}`);
        }
      }
    }
    expect(missing).to.deep.equal([]);
  });

  it("lists as pending only pages that do not exist yet (empty the list as they land)", () => {
    const landed = [...PENDING_PAGES].filter((file) => fs.existsSync(path.join(PACKAGE_ROOT, file)));
    expect(landed, "these pages exist: remove them from PENDING_PAGES").to.deep.equal([]);
  });
});
