import { Codec } from "../codec/codec.js";
import { compileTables } from "./restServer.js";

/** Prints the compiled route table: verb, path, proto method. */
export function printRoutes(): void {
  const { gateway } = compileTables(new Codec());
  const width = Math.max(...gateway.map((r) => r.path.length));
  for (const route of gateway) console.log(`${route.verb.toUpperCase().padEnd(4)} ${route.path.padEnd(width)}  ${route.methodPath.slice(1)}`);
  console.log(`${gateway.length} gateway routes`);
}
