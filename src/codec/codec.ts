import type protobuf from "protobufjs";
import { Proto3JsonParser } from "./json/parseProto3.js";
import { Proto3JsonRenderer } from "./json/renderProto3.js";
import { protoRoot } from "./protoRoot.js";
import { lookupType } from "./typeRegistry.js";

/** The proto tree with its JSON renderer and parser, loaded once per process. */
export class Codec {
  readonly renderer: Proto3JsonRenderer;
  readonly parser: Proto3JsonParser;

  constructor(readonly root: protobuf.Root = protoRoot()) {
    this.renderer = new Proto3JsonRenderer(root);
    this.parser = new Proto3JsonParser(root);
  }

  type(name: string): protobuf.Type {
    return lookupType(this.root, name);
  }
}
