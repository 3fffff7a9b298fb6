/** The height a client connection was last answered at (latest-height requests only); kept on the connection's socket. */
export interface ConnectionHeight {
  floor: number;
}

/** What one request through a multi-node gateway carries: its connection's height floor, and what the gateway did. */
export interface UpstreamRequestScope {
  connection: ConnectionHeight;
  /** The node that answered the request's last call. */
  answeredBy?: string;
  /** A broadcast's path through the nodes, told to the client in a header. */
  broadcastNote?: string;
}
