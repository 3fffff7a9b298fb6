import type { ChainClient } from "../chainClient.js";
import type { UpstreamRequestScope } from "./requestScope.js";

/**
 * A client as one request through a gateway in front of several nodes sees it:
 * each call carries the request's scope (its connection's height floor; the
 * node that answered, a broadcast's path) as its last argument. Passed
 * explicitly, not through AsyncLocalStorage, whose promise hooks cost every
 * promise of the process once it is used (the multi-node bench row). One per
 * request (upstreamScope.ts requestDeps); the requests' calls only, so the
 * in-process queryMessage, which a gateway has not, is left out.
 */
export class ScopedClient implements ChainClient {
  readonly address: string;

  constructor(
    private readonly inner: ChainClient,
    private readonly scope: UpstreamRequestScope,
  ) {
    this.address = inner.address;
  }

  abciQuery(path: string, data: Uint8Array, height?: number) {
    return this.inner.abciQuery(path, data, height, this.scope);
  }
  broadcastTx(tx: Uint8Array, mode: Parameters<ChainClient["broadcastTx"]>[1]) {
    return this.inner.broadcastTx(tx, mode, this.scope);
  }
  tx(hash: Uint8Array) {
    return this.inner.tx(hash, this.scope);
  }
  txSearch(query: string, page?: number, perPage?: number, orderBy?: "asc" | "desc") {
    return this.inner.txSearch(query, page, perPage, orderBy, this.scope);
  }
  block(height?: number) {
    return this.inner.block(height, this.scope);
  }
  validators(height?: number, page?: number, perPage?: number) {
    return this.inner.validators(height, page, perPage, this.scope);
  }
  status() {
    return this.inner.status(this.scope);
  }
  get blockResults(): ChainClient["blockResults"] {
    const inner = this.inner;
    return inner.blockResults && ((height) => inner.blockResults!(height, this.scope));
  }
  get heightsRewritable(): ChainClient["heightsRewritable"] {
    return this.inner.heightsRewritable?.bind(this.inner);
  }
  get watchHeights(): ChainClient["watchHeights"] {
    return this.inner.watchHeights?.bind(this.inner);
  }
  get subscribeEvents(): ChainClient["subscribeEvents"] {
    return this.inner.subscribeEvents?.bind(this.inner);
  }
}
