import { expect } from "chai";
import { openFileLimit } from "../../src/http/openFileLimit.js";
import { askUntilOk, silentFlood, type Ask } from "../helpers/connectionFlood.js";
import { pollUntil } from "../helpers/poll.js";
import { setApiSettings } from "../helpers/appToml.js";
import { useStartedDevChain } from "../helpers/startedDevChain.js";

/** As many silent connections as this process's open-file limit allows with room to spare, up to 3,000. */
const FLOOD = Math.min(3000, Math.floor(((openFileLimit() ?? 4096) - 1024) / 2));
/** Below the flood, so that new connections take the places of the oldest silent ones. */
const MAX_IDLE = Math.floor((FLOOD * 2) / 3);
const READ_TIMEOUT_S = 2;
const ASKS = 20;
const ROUTE = "/core/bank/v1beta1/params";

/**
 * Thousands of silent connections held against `chain-rest start` (each
 * reopened a second after the server ends it, as an attacker would), more than
 * api.max-idle-connections: a client asking on new connections, and following
 * Retry-After when told 503, is answered every time. The time it takes is
 * measured by bench/connectionFlood.bench.ts, not here.
 */
describe(`hardening: ${FLOOD} silent connections held`, function () {
  this.timeout(120_000);
  const chain = useStartedDevChain({ prepare: (home) => setApiSettings(home, { "rpc-read-timeout": READ_TIMEOUT_S, "max-idle-connections": MAX_IDLE }) });

  it(`a client asking ${ASKS} times meanwhile gets its 200 each time (api.max-idle-connections = ${MAX_IDLE})`, async function () {
    if (FLOOD < 500) this.skip(); // ulimit -n too low to hold a flood here
    const flood = silentFlood(chain.node().restUrl, FLOOD);
    try {
      await pollUntil(
        async () => flood.open(),
        (open) => open >= MAX_IDLE,
      );
      const asks: Ask[] = [];
      for (let i = 0; i < ASKS; i++) {
        asks.push(await askUntilOk(chain.node().restUrl, ROUTE));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // the flood went on all along: the server kept ending silent connections and they came back
      await pollUntil(
        async () => flood.ended(),
        (ended) => ended >= FLOOD - MAX_IDLE,
      );
      expect(asks).to.have.length(ASKS);
      console.log(
        `      ${flood.open()} flood connections open, ${flood.ended()} ended by the server; ` +
          `${asks.filter((a) => a.firstStatus === 200).length}/${ASKS} asks answered 200 at once, at most ${Math.max(...asks.map((a) => a.attempts))} attempts`,
      );
    } finally {
      await flood.stop();
    }
  });
});
