/**
 * Where a server's resident memory is, for the soak: anonymous and file-backed pages from /proc,
 * and from its /metrics (telemetry on) the V8 heap, memory outside it, the kept answers and scans,
 * and LevelDB's own estimate of its write buffers and block cache.
 */
import fs from "node:fs";
import http from "node:http";

export interface MemorySplit {
  anonMb: number;
  fileMb: number;
  heapUsedMb?: number;
  heapTotalMb?: number;
  externalMb?: number;
  answerCacheMb?: number;
  keptScansMb?: number;
  keptValues?: number;
  levelDbMb?: number;
  /** glibc malloc's heaps: the main heap ([heap]) and the threads' arenas (64 MiB-aligned anonymous regions). */
  mallocMb?: number;
}

const MB = 2 ** 20;

export async function memorySplit(pid: number, restUrl: string, agent: http.Agent): Promise<MemorySplit> {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))?.[1] ?? NaN);
  const split: MemorySplit = { anonMb: kb("RssAnon") / 1024, fileMb: kb("RssFile") / 1024, mallocMb: mallocHeapsMb(pid) };
  const text = await metricsText(`${restUrl}/metrics?format=prometheus`, agent).catch(() => "");
  // default metrics carry the service prefix too (chain_rest_nodejs_…); unlabelled lines only
  const value = (name: string) => {
    const found = new RegExp(`^\\w*${name} (\\S+)$`, "m").exec(text);
    return found ? Number(found[1]) : undefined;
  };
  const mb = (name: string) => {
    const bytes = value(name);
    return bytes === undefined ? undefined : bytes / MB;
  };
  return {
    ...split,
    heapUsedMb: mb("nodejs_heap_size_used_bytes"),
    heapTotalMb: mb("nodejs_heap_size_total_bytes"),
    externalMb: mb("nodejs_external_memory_bytes"),
    answerCacheMb: mb("api_answer_cache_bytes"),
    keptScansMb: mb("store_kept_scan_bytes"),
    keptValues: value("store_kept_values"),
    levelDbMb: mb("store_leveldb_memory_bytes"),
  };
}

/** One line: "anon 55 MB, file 46 MB, heap 30/36 MB, …" (absent parts left out). */
export function splitText(split: MemorySplit | undefined): string {
  if (!split) return "no split";
  const n = (x: number | undefined) => (x === undefined ? "?" : x.toFixed(1));
  return [
    `anon ${n(split.anonMb)} MB`,
    `file ${n(split.fileMb)} MB`,
    `heap used/total ${n(split.heapUsedMb)}/${n(split.heapTotalMb)} MB`,
    `external ${n(split.externalMb)} MB`,
    `answer cache ${n(split.answerCacheMb)} MB`,
    `kept scans ${n(split.keptScansMb)} MB`,
    `kept values ${split.keptValues ?? "?"}`,
    `LevelDB ${n(split.levelDbMb)} MB`,
    `malloc heaps ${n(split.mallocMb)} MB`,
  ].join(", ");
}

const ARENA_ALIGNMENT = 64 * MB; // glibc's HEAP_MAX_SIZE on 64-bit: each thread arena is a region aligned to it

/** Resident MB of glibc's main heap and thread arenas, from /proc/PID/smaps. */
function mallocHeapsMb(pid: number): number | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/smaps`, "utf8");
  } catch {
    return undefined;
  }
  let kb = 0;
  let counted = false;
  for (const line of text.split("\n")) {
    const region = /^([0-9a-f]+)-[0-9a-f]+ \S+ \S+ \S+ (\d+)\s*(\S*)$/.exec(line);
    if (region) {
      const anonymous = region[2] === "0" && region[3] === "";
      counted = region[3] === "[heap]" || (anonymous && Number(BigInt(`0x${region[1]}`) % BigInt(ARENA_ALIGNMENT)) === 0);
    } else if (counted && line.startsWith("Rss:")) kb += Number(/(\d+)/.exec(line)![1]);
  }
  return kb / 1024;
}

function metricsText(url: string, agent: http.Agent): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (text += d));
        res.on("end", () => resolve(text));
      })
      .on("error", reject);
  });
}
