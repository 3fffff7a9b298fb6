import type protobuf from "protobufjs";
import { Proto3JsonParser } from "./json/parseProto3.js";
import { Proto3JsonRenderer } from "./json/renderProto3.js";
import { protoRoot } from "./protoRoot.js";
import { lookupType } from "./typeRegistry.js";

/** The proto tree with its JSON renderer and parser, loaded once per process. */
export class Codec {
  readonly renderer: Proto3JsonRenderer;
  /** Types by the names asked (module code asks by literal names, per query and per transaction). */
  private readonly types = new Map<string, protobuf.Type>();
  readonly parser: Proto3JsonParser;

  constructor(readonly root: protobuf.Root = protoRoot()) {
    this.renderer = new Proto3JsonRenderer(root);
    this.parser = new Proto3JsonParser(root);
  }

  type(name: string): protobuf.Type {
    let type = this.types.get(name);
    if (!type) {
      type = lookupType(this.root, name); // throws for an unknown name, which is not kept
      this.types.set(name, type);
    }
    return type;
  }
}
