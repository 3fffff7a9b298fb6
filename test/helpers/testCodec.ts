import protobuf from "protobufjs";
import { Codec } from "../../src/codec/codec.js";
import { loadProtoRoot } from "../../src/codec/protoRoot.js";

/**
 * The project's proto tree plus a test-only message that has a field of
 * every kind the JSON rules treat differently.
 */
const SAMPLE_PROTO = `
syntax = "proto3";
package test.sample;
import "google/protobuf/any.proto";
import "google/protobuf/timestamp.proto";
import "google/protobuf/duration.proto";

enum Color { COLOR_UNSPECIFIED = 0; COLOR_RED = 1; COLOR_BLUE = 2; }

message Inner { string name = 1; uint64 count = 2; }

message Sample {
  string text = 1;
  int64 big = 2;
  uint64 ubig = 3;
  int32 small = 4;
  bool flag = 5;
  bytes data = 6;
  Color color = 7;
  Inner inner = 8;
  Inner required_inner = 9 [(gogoproto.nullable) = false];
  repeated Inner items = 10;
  repeated uint64 numbers = 11;
  google.protobuf.Any any = 12;
  google.protobuf.Timestamp time = 13;
  google.protobuf.Duration period = 14;
  string rate = 15 [(gogoproto.customtype) = "Dec", (gogoproto.nullable) = false];
  string amount = 16 [(gogoproto.customtype) = "Int", (gogoproto.nullable) = false];
  map<string, uint64> counts = 17;
  oneof choice { string word = 18; uint64 number = 19; }
  double ratio = 20;
}
`;

export function testCodec(): Codec {
  const root = loadProtoRoot();
  protobuf.parse(SAMPLE_PROTO, root, { keepCase: true });
  root.resolveAll();
  return new Codec(root);
}
