/**
 * What a young-generation size costs (it chose SERVER_NODE_FLAGS): server CPU per request on the
 * hot and cold balance rows, one server per size (semi-spaces of 4, 8, 16 MiB), side by side on
 * copies of one home of 30,000 accounts, in interleaved rounds of 3 s each (the first a warm-up).
 * Not a results.json row: it prints its table.
 *   npx tsx bench/youngGenerationCost.ts [rounds]   (default 4)
 */
import { flagVariantsCost } from "./flagVariantsCost.js";

const variants = Object.fromEntries([4, 8, 16].map((size) => [`semi ${size} MiB`, [`--min-semi-space-size=${size}`, `--max-semi-space-size=${size}`]]));
await flagVariantsCost("younggen", variants, Number(process.argv[2] ?? 4));
