import { expect } from "chai";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { setApiSettings } from "../helpers/appToml.js";
import { bundledChromium } from "../helpers/bundledChromium.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { http as request } from "../helpers/http.js";
import { startNode, type StartedNode } from "../helpers/processes.js";
import { initDevHome } from "../helpers/devHome.js";
import { tempDir } from "../helpers/tempDir.js";
import { directTx, send, testSigner } from "../helpers/txSigner.js";

/** A page that opens an EventSource on `eventsUrl` and keeps what it receives in `window.received`. */
function pageHtml(eventsUrl: string): string {
  return `<!doctype html><html><body><script>
    window.received = [];
    window.state = "connecting";
    const source = new EventSource(${JSON.stringify(eventsUrl)});
    source.onopen = () => (window.state = "open");
    source.onerror = () => (window.state = "error");
    source.onmessage = (m) => window.received.push({ id: m.lastEventId, data: JSON.parse(m.data) });
  </script></body></html>`;
}

/**
 * GET /events in headless Chromium (the suite's @sparticuz/chromium): a page
 * served by the test from another origin (its own port) opens an EventSource
 * on the REST port, with api.enabled-unsafe-cors on, and sees a signed tx sent
 * over REST arrive as its Tx event. A browser refuses a cross-origin stream
 * without Access-Control-Allow-Origin, so this is also the CORS test.
 */
describe("e2e: GET /events in a browser (EventSource, cross-origin)", function () {
  this.timeout(120_000);
  const dir = tempDir();
  const home = path.join(dir, "home");
  let node: StartedNode;
  let pageServer: http.Server;
  let pageOrigin: string;
  let browser: BrowserContext;
  let page: Page;

  before(async () => {
    const chromiumBuild = await bundledChromium();
    initDevHome(home, { accounts: 4, mnemonic: TEST_MNEMONIC });
    setApiSettings(home, { "enabled-unsafe-cors": true });
    node = await startNode(home);
    pageServer = http.createServer((req, res) => {
      const eventsUrl = new URL(req.url ?? "/", "http://page").searchParams.get("events") ?? "";
      res.writeHead(200, { "content-type": "text/html" }).end(pageHtml(eventsUrl));
    });
    await new Promise<void>((resolve) => pageServer.listen(0, "127.0.0.1", resolve));
    // "localhost" rather than 127.0.0.1: another host as well as another port, so surely another origin
    pageOrigin = `http://localhost:${(pageServer.address() as AddressInfo).port}`;
    browser = await chromium.launchPersistentContext(path.join(dir, "chromium-profile"), {
      executablePath: chromiumBuild.executablePath,
      // the package turns web security off (for its own uses); on here, so that the browser checks CORS
      args: chromiumBuild.args.filter((arg) => arg !== "--disable-web-security"),
      env: { ...process.env, ...chromiumBuild.env },
      headless: true,
    });
    page = browser.pages()[0] ?? (await browser.newPage());
  });
  after(async () => {
    await browser?.close();
    pageServer?.close();
    await node?.proc.stop();
  });

  it("answers /events with Access-Control-Allow-Origin, as the other routes", async () => {
    const url = `${node.restUrl}/events?query=${encodeURIComponent("tm.event='NewBlock'")}`;
    const abort = new AbortController();
    const stream = await fetch(url, { headers: { Origin: pageOrigin }, signal: abort.signal });
    expect(stream.status).to.equal(200);
    expect(stream.headers.get("access-control-allow-origin")).to.equal("*");
    abort.abort();
    const preflight = await request(url, {
      method: "OPTIONS",
      headers: { Origin: pageOrigin, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "last-event-id" },
    });
    expect(preflight.headers.get("access-control-allow-origin")).to.equal("*");
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).to.include("last-event-id");
  });

  it("streams a sent tx to an EventSource of a page from another origin", async () => {
    const [from, to] = await Promise.all([testSigner(TEST_MNEMONIC, 0), testSigner(TEST_MNEMONIC, 1)]);
    const query = `tm.event='Tx' AND transfer.recipient='${to.address}'`;
    const eventsUrl = `${node.restUrl}/events?query=${encodeURIComponent(query)}`;
    expect(new URL(pageOrigin).origin).not.to.equal(new URL(node.restUrl).origin);
    await page.goto(`${pageOrigin}/?events=${encodeURIComponent(eventsUrl)}`);
    await page.waitForFunction(() => (window as unknown as { state: string }).state !== "connecting", undefined, { timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { state: string }).state)).to.equal("open");

    const tx = await directTx(from, { messages: [send(from.address, to.address, "1000")], sequence: 0, accountNumber: 0 });
    const r = await request(`${node.restUrl}/core/tx/v1beta1/txs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tx_bytes: Buffer.from(tx).toString("base64"), mode: "BROADCAST_MODE_BLOCK" }),
    });
    expect(r.status, r.text).to.equal(200);
    const { txhash, height } = r.body.tx_response as { txhash: string; height: string };

    type Received = { id: string; data: { query: string; data: { type: string }; events: Record<string, string[]> } };
    const arrived = await page.waitForFunction(
      (hash) => (window as unknown as { received: Received[] }).received.find((m) => m.data.events["tx.hash"]?.[0] === hash),
      txhash,
      { timeout: 30_000 },
    );
    const message = (await arrived.jsonValue()) as Received;
    expect(message.id).to.equal(`${height}.0`);
    expect(message.data.query).to.equal(query);
    expect(message.data.data.type).to.equal("tendermint/event/Tx");
    expect(message.data.events["transfer.recipient"]).to.include(to.address);
  });
});
