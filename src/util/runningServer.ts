/** A server this process started (the REST server, the node's RPC server). */
export interface RunningServer {
  /** "http://127.0.0.1:1317" */
  url: string;
  /** Stops accepting, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
}
