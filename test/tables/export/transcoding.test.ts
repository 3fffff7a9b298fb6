import { expect } from "chai";
import protobuf from "protobufjs";
import { Codec } from "../../../src/codec/codec.js";
import { listen } from "../../../src/server/httpServer.js";
import type { OpenApi31Document } from "../../../src/openapi/openApi31.js";
import { createRestApp } from "../../../src/server/restApp.js";
import { compileTables } from "../../../src/tables/compileTables.js";
import { earlierTwin } from "../../../src/tables/export/httpRules.js";
import type { RunningServer } from "../../../src/util/runningServer.js";
import { DescriptorTranscoder } from "../../helpers/descriptorTranscoder.js";
import { http } from "../../helpers/http.js";
import { recordingChainClient } from "../../helpers/recordingChainClient.js";
import { exportRoutes } from "../../helpers/routeExports.js";
import { testApiConfig } from "../../helpers/testApiConfig.js";

const AS_TEXT = { longs: String, enums: String, bytes: String, defaults: false } as const;

/**
 * The descriptor set alone, read as a gateway reads it, maps every example
 * request of the OpenAPI document (each operation's path with its parameters'
 * examples) to the method and request message that chain-rest's own router
 * sends the node for that request, over HTTP.
 */
describe("HTTP→gRPC mapping from the exported descriptor set alone, against chain-rest's router", function () {
  this.timeout(120_000);
  const codec = new Codec();
  const { gateway } = compileTables(codec);
  const client = recordingChainClient();
  let server: RunningServer;
  let document: OpenApi31Document;
  let transcoder: DescriptorTranscoder;

  before(async () => {
    const app = createRestApp({
      gatewayRoutes: gateway,
      deps: { client, codec, services: new Map(), maxBodyBytes: 1 << 20, bech32Prefix: "hub" },
      cors: false,
      swagger: true,
    });
    server = await listen(app, testApiConfig());
    document = (await http(`${server.url}/openapi.json`)).body as OpenApi31Document;
    transcoder = new DescriptorTranscoder((await exportRoutes("descriptor-set", "seed")).stdout);
  });
  after(() => server.close());

  it("agrees on every exported route; a route left out of the exports (a template cannot tell it from another) is not reached", async () => {
    const leftOut = new Set(gateway.filter((r) => earlierTwin(r, gateway)).map((r) => `${r.verb} ${r.path}`));
    const agreed: string[] = [];
    const differed: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [verb, operation] of Object.entries(item)) {
        if (operation.tags?.includes("operations")) continue; // the balancer's probes: served beside the tables, not exported
        const examples = Object.fromEntries(operation.parameters.filter((p) => p.in === "path").map((p) => [p.name as string, p.example as string]));
        const url = new URL(server.url + path.replace(/\{([^}]+)\}/g, (_all, name: string) => encodeURIComponent(examples[name]!)) + "?pagination.limit=7");
        const body = operation.requestBody ? {} : undefined;
        const asked = client.queries.length;
        const answer = await http(url.href, {
          method: verb.toUpperCase(),
          ...(body ? { body: JSON.stringify(body), headers: { "content-type": "application/json" } } : {}),
        });
        expect(answer.status, `${verb} ${url.pathname}: ${answer.text}`).to.equal(200);
        expect(client.queries.length - asked, `${verb} ${url.pathname} asks the node once`).to.equal(1);
        const sent = client.queries.at(-1)!;

        const mapped = transcoder.transcode(verb, url, body);
        expect(mapped, `${verb} ${url.pathname} matches a template`).to.not.equal(undefined);
        const type: protobuf.Type = mapped!.binding.requestType;
        const same =
          "request" in mapped! &&
          mapped.binding.methodPath === sent.path &&
          JSON.stringify(type.toObject(type.decode(sent.data), AS_TEXT)) === JSON.stringify(type.toObject(mapped.request, AS_TEXT));
        if (same) agreed.push(`${verb} ${path}`);
        else {
          differed.push(`${verb} ${path}`);
          // its twin's template takes the path: another method, or a value that does not fit it (400)
          expect(leftOut.has(`${verb} ${path}`), `${verb} ${path} → ${mapped!.binding.methodPath}, chain-rest → ${sent.path}`).to.equal(true);
          expect(mapped!.binding.methodPath).to.not.equal(sent.path);
        }
      }
    }
    expect(agreed).to.have.length(gateway.length - leftOut.size);
    expect(differed.sort()).to.deep.equal([...leftOut].sort());
    console.log(`      (${agreed.length} operations agree; ${differed.length} left out of the exports, as stderr says: ${differed.join(", ")})`);
  });
});
