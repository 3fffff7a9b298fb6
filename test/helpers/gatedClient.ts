import type { AbciQueryResponse, MessageQueryResponse } from "../../src/client/chainClient.js";
import type { ProtoMessage } from "../../src/codec/json/renderProto3.js";
import { InProcessClient } from "../../src/node/inProcessClient.js";

/**
 * The real in-process client, holding every query until the test opens the
 * gate: so that requests sent at once are all in the server before any
 * query ends, whatever the machine's speed.
 */
export class GatedClient extends InProcessClient {
  private open: Promise<void> = Promise.resolve();
  private release = () => {};

  close(): void {
    this.open = new Promise((resolve) => (this.release = resolve));
  }
  openGate(): void {
    this.release();
  }
  override async abciQuery(path: string, data: Uint8Array, height = 0): Promise<AbciQueryResponse> {
    await this.open;
    return super.abciQuery(path, data, height);
  }
  override async queryMessage(path: string, request: ProtoMessage, height = 0): Promise<MessageQueryResponse | undefined> {
    await this.open;
    return super.queryMessage(path, request, height);
  }
}
