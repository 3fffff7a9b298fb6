import protobuf from "protobufjs";
import type { Codec } from "../../codec/codec.js";
import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import type { NodeModule, QueryContext, QueryHandler } from "../modules/nodeModule.js";
import { names } from "../../names/activeNames.js";

interface RoutedQuery {
  handler: QueryHandler;
  requestType: protobuf.Type;
  responseType: protobuf.Type;
  module: NodeModule;
}

/**
 * Routes ABCI query paths ("/core.bank.v1beta1.Query/AllBalances", in the naming profile's words) to module
 * handlers, decoding the request bytes and encoding the response with the
 * method's proto types. Built once; a handler without a proto method is a startup error.
 */
export class QueryRouter {
  private readonly routes = new Map<string, RoutedQuery>();

  constructor(modules: NodeModule[], codec: Codec) {
    for (const module of modules) {
      // the Query service, and the legacy querier's methods the legacy routes call
      const services = [{ service: module.queryService, queries: module.queries }, module.legacyQuerier ?? { service: undefined, queries: undefined }];
      for (const { service: serviceName, queries } of services) {
        if (!serviceName || !queries) continue;
        const profileName = names().protoName(serviceName);
        const service = codec.root.lookupService("." + profileName);
        for (const [name, handler] of Object.entries(queries)) {
          const method = service.methods[name];
          if (!method) throw new Error(`module ${module.name}: ${serviceName} has no method ${name}`);
          method.resolve();
          this.routes.set(`/${profileName}/${name}`, { handler, requestType: method.resolvedRequestType!, responseType: method.resolvedResponseType!, module });
        }
      }
    }
  }

  has(path: string): boolean {
    return this.routes.has(path);
  }

  async query(path: string, data: Uint8Array, context: (module: NodeModule) => QueryContext): Promise<Uint8Array> {
    const route = this.routes.get(path)!;
    const request = route.requestType.decode(data) as unknown as ProtoMessage;
    const response = await route.handler(request, context(route.module));
    return route.responseType.encode(response).finish();
  }

  /**
   * The same answer as messages, for callers in the node's process: the request
   * as protobufjs message fields (made a message of its type, as decoding would),
   * the response as the handler gives it (the fields its encoding would write).
   */
  answer(path: string, request: ProtoMessage, context: (module: NodeModule) => QueryContext): Promise<ProtoMessage> {
    const route = this.routes.get(path)!;
    return route.handler(route.requestType.fromObject(request), context(route.module));
  }
}
