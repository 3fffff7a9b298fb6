import { expect } from "chai";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { readDevAccounts } from "../../src/commands/home.js";
import { bundledChromium } from "../helpers/bundledChromium.js";
import { startNode, type StartedNode } from "../helpers/processes.js";
import { initDevHome } from "../helpers/devHome.js";
import { tempDir } from "../helpers/tempDir.js";

/** Set SWAGGER_SCREENSHOT=<file.png> to keep a picture of the page after "Try it out". */
const SCREENSHOT = process.env.SWAGGER_SCREENSHOT;

/**
 * The Swagger UI at /swagger/ in headless Chromium, against a node started
 * from `init`: the operations are grouped by module, and "Try it out" on the
 * balances route answers 200 with a dev account's balances. Every request the
 * page makes goes to the server itself (the UI works offline).
 */
describe("e2e: Swagger UI in a browser", function () {
  this.timeout(120_000);
  const dir = tempDir();
  const home = path.join(dir, "home");
  let node: StartedNode;
  let browser: BrowserContext;
  let page: Page;
  const requested: string[] = [];

  before(async () => {
    // the browser comes from node_modules (@sparticuz/chromium), nothing installed on the machine
    const chromiumBuild = await bundledChromium();
    initDevHome(home);
    node = await startNode(home);
    // A persistent context is how playwright takes a --user-data-dir; this one is fresh.
    browser = await chromium.launchPersistentContext(path.join(dir, "chromium-profile"), {
      executablePath: chromiumBuild.executablePath,
      args: chromiumBuild.args,
      env: { ...process.env, ...chromiumBuild.env },
      headless: true,
    });
    page = browser.pages()[0] ?? (await browser.newPage());
    page.on("request", (request) => requested.push(request.url()));
  });
  after(async () => {
    await browser?.close();
    await node?.proc.stop();
  });

  it("shows the operations grouped by module tags", async () => {
    await page.goto(`${node.restUrl}/swagger/`);
    await page.locator(".opblock-tag-section").first().waitFor({ timeout: 30_000 });
    const tags = await page.locator("h3.opblock-tag").evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-tag")));
    expect(tags).to.include.members(["auth", "bank", "staking", "gov", "ibc.channel", "token", "nft", "tx", "legacy.staking", "legacy.txs"]);
    // the tags start collapsed (some 250 operations in both families): open bank's
    await page.locator('h3.opblock-tag[data-tag="bank"]').click();
    await page.locator('h3.opblock-tag[data-tag="bank"] + div .opblock-summary-path').first().waitFor({ timeout: 30_000 });
    const bank = await page.locator('h3.opblock-tag[data-tag="bank"] + div .opblock-summary-path').allTextContents();
    expect(bank.map((p) => p.replace(/\u200b/g, ""))).to.include("/core/bank/v1beta1/balances/{address}");
  });

  it('runs "Try it out" on the balances route and shows a 200 with the balances', async () => {
    const address = readDevAccounts(home)!.accounts[0]!.address;
    const operation = page.locator("#operations-bank-BankAllBalances");
    await operation.locator(".opblock-summary").click();
    await operation.locator("button.try-out__btn").click();
    await operation.locator('tr[data-param-name="address"] input').fill(address);
    await operation.locator("button.execute").click();
    const answer = operation.locator(".live-responses-table tr.response");
    await answer.waitFor({ timeout: 30_000 });
    if (SCREENSHOT) {
      await answer.scrollIntoViewIfNeeded();
      await page.screenshot({ path: SCREENSHOT });
    }
    expect((await answer.locator(".response-col_status").textContent())?.trim()).to.equal("200");
    const body = JSON.parse((await answer.locator(".response-col_description pre").first().textContent()) ?? "");
    expect(body.balances).to.deep.include({ denom: "uhub", amount: "1000000000000" });
    const requestUrl = `${node.restUrl}/core/bank/v1beta1/balances/${address}`;
    expect(requested).to.include(requestUrl);
    expect(
      requested.filter((url) => !url.startsWith(`${node.restUrl}/`)),
      "requests that leave the server",
    ).to.deep.equal([]);
  });
});
