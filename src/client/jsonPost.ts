import http from "node:http";
import https from "node:https";

/** The request could not be completed: `reason` is a timeout text or the network error's code. */
export class PostFailed extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * POSTs a JSON body and reads the whole answer, over kept-alive connections
 * (Node's http client: less work per call than fetch, which matters for a
 * gateway whose every answer is a call to its node). The whole exchange is
 * bounded by `timeoutMs`.
 */
export class JsonPoster {
  private readonly agent: http.Agent;
  private readonly transport: typeof http | typeof https;
  /** Where every call goes, parsed once (Node would parse the URL text on each request). */
  private readonly target: http.RequestOptions;

  constructor(
    url: string,
    private readonly timeoutMs: number,
  ) {
    const parsed = new URL(url);
    this.transport = parsed.protocol === "https:" ? https : http;
    this.agent = new this.transport.Agent({ keepAlive: true });
    this.target = {
      protocol: parsed.protocol,
      hostname: parsed.hostname.replace(/^\[|\]$/g, ""),
      port: parsed.port,
      path: `${parsed.pathname}${parsed.search}`,
      ...(parsed.username || parsed.password ? { auth: `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}` } : {}),
    };
  }

  post(body: string): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const request = this.transport.request({
        ...this.target,
        method: "POST",
        agent: this.agent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      });
      const timer = setTimeout(() => request.destroy(new PostFailed(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      const fail = (err: Error & { code?: string }) => {
        clearTimeout(timer);
        reject(err instanceof PostFailed ? err : new PostFailed(err.code ?? err.message));
      };
      request.on("error", fail);
      request.on("response", (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", fail);
        response.on("end", () => {
          clearTimeout(timer);
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") });
        });
      });
      request.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
