/** One naming profile's words per context (names.yaml): prefix → the profile's prefix. */
export interface WordMapTable {
  packages: Record<string, string>;
  paths: Record<string, string>;
  amino: Record<string, string>;
  texts: Record<string, string>;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

/** One context's rule: every prefix of `pairs` at a name's start (after `before`, before `after`). */
function rule(pairs: Record<string, string>, before: string, after: string): (text: string) => string {
  const keys = Object.keys(pairs).sort((a, b) => b.length - a.length);
  if (keys.length === 0) return (text) => text;
  const pattern = new RegExp(`(?<![${before}])(?:${keys.map(escape).join("|")})${after}`, "g");
  return (text) => text.replace(pattern, (found) => pairs[found]!);
}

const swap = (pairs: Record<string, string>) => Object.fromEntries(Object.entries(pairs).map(([a, b]) => [b, a]));

/**
 * The translation of the specification's neutral names into one profile's (and
 * back): type names, type URLs and ABCI paths (`packages`), REST paths, amino
 * names and message words. A name is matched at its start only, so that words
 * inside other names (ibc.core.channel.v1, /ibc/core/...) keep their meaning.
 * The identity map is the default profile.
 */
export class WordMap {
  readonly #toProfile: (text: string) => string;
  readonly #toNeutral: (text: string) => string;
  readonly #package: (name: string) => string;
  readonly #neutralPackage: (name: string) => string;

  constructor(
    readonly profile: string,
    readonly table: WordMapTable = { packages: {}, paths: {}, amino: {}, texts: {} },
  ) {
    for (const [from, to] of Object.entries(table.packages))
      if (from.split(".").length !== to.split(".").length) throw new Error(`names.yaml: ${profile}.packages.${from}: "${to}" must have as many segments`);
    const chain =
      (...steps: Array<(text: string) => string>) =>
      (text: string) =>
        steps.reduce((t, step) => step(t), text);
    const contexts = (pairs: WordMapTable) =>
      chain(
        rule(pairs.packages, "\\w.\\-", "(?=\\.\\w)"),
        rule(pairs.paths, "\\w.\\-", ""),
        rule(pairs.amino, "\\w./\\-", ""),
        rule(pairs.texts, "\\w", "(?!\\w)"),
      );
    this.#toProfile = contexts(table);
    this.#toNeutral = contexts({ packages: swap(table.packages), paths: swap(table.paths), amino: swap(table.amino), texts: swap(table.texts) });
    this.#package = rule(table.packages, "\\w.\\-", "(?=\\.|$)");
    this.#neutralPackage = rule(swap(table.packages), "\\w.\\-", "(?=\\.|$)");
  }

  get isDefault(): boolean {
    return Object.keys(this.table.packages).length === 0;
  }

  /**
   * A proto full name or a package in this profile's words: "core.bank.v1beta1.MsgSend" →
   * "cosmos.bank.v1beta1.MsgSend". A name already in the profile's words is kept.
   */
  protoName(name: string): string {
    return this.#package(name);
  }

  /** A proto full name of this profile → the neutral name (the node's module code uses those). */
  neutralProtoName(name: string): string {
    return this.#neutralPackage(name);
  }

  /**
   * A type URL or ABCI query path ("/cosmos.bank.v1beta1.Query/AllBalances") → the neutral one.
   * One written in the neutral words under another profile is not this profile's: it comes back
   * marked ("!/core...") so that it matches no name the code compares it with.
   */
  neutralPath(path: string): string {
    if (!this.isDefault && this.profilePath(path) !== path) return "!" + path;
    return path.startsWith("/") ? "/" + this.#neutralPackage(path.slice(1)) : this.#neutralPackage(path);
  }

  /** A type URL or ABCI query path of the neutral names → this profile's. */
  profilePath(path: string): string {
    return path.startsWith("/") ? "/" + this.#package(path.slice(1)) : this.#package(path);
  }

  /** Any text (a table's string, a REST path, an amino name, a message) in this profile's words. */
  text(text: string): string {
    return this.#toProfile(text);
  }

  /** Any text of this profile → the neutral words. */
  neutralText(text: string): string {
    return this.#toNeutral(text);
  }

  /** A value read from a table (strings, keys of objects, items of arrays) in this profile's words. */
  deep<T>(value: T): T {
    if (this.isDefault) return value;
    const walk = (v: unknown): unknown => {
      if (typeof v === "string") return this.text(v);
      if (Array.isArray(v)) return v.map(walk);
      if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [this.text(k), walk(x)]));
      return v;
    };
    return walk(value) as T;
  }
}
