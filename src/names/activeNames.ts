import { DEFAULT_NAMES, loadNamesTable, NamesError } from "./namesTable.js";
import { WordMap } from "./wordMap.js";

/**
 * The naming profile of this process, chosen once at start from app.toml's
 * `names` (a process serves one chain, so one profile), before the proto tree
 * and the tables load. The default profile needs no file read.
 */
let active = new WordMap(DEFAULT_NAMES);

/** Chooses the profile by name; throws a NamesError naming the profiles there are. */
export function useNames(profile: string): WordMap {
  if (profile === active.profile) return active;
  const profiles = loadNamesTable();
  const map = profiles.get(profile);
  if (!map) throw new NamesError(`names = "${profile}" is not a profile of names.yaml (${[...profiles.keys()].join(", ")})`);
  active = map;
  return active;
}

/** The profile's word map (the identity map unless useNames chose another). */
export function names(): WordMap {
  return active;
}

/** Every profile of names.yaml, the default included (for telling which one a node speaks). */
export function allNames(): WordMap[] {
  return [...loadNamesTable().values()];
}
