/**
 * The attacker of the connection-flood bench, in its own process (its event
 * loop apart from the measuring client's): N silent connections to the URL,
 * each reopened a second after the server ends it. Prints how many are open
 * every second until killed.
 *
 *   tsx bench/floodClient.ts http://127.0.0.1:1317 10000
 */
import { silentFlood } from "../test/helpers/connectionFlood.js";

const [url, count] = process.argv.slice(2);
const flood = silentFlood(url!, Number(count));
setInterval(() => console.log(`open ${flood.open()} ended ${flood.ended()}`), 1000);
process.on("SIGTERM", () => void flood.stop().then(() => process.exit(0)));
