import WebSocket from "ws";
import { websocketText } from "../../src/util/websocketText.js";

export type Message = {
  id: unknown;
  result?: { query?: string; data?: { type: string; value: Record<string, unknown> }; events?: Record<string, string[]> };
  error?: { code: number; message?: string; data?: string };
};

/** A raw JSON-RPC websocket client that keeps every message and waits for one (the test's timeout bounds the wait). */
export async function rpcSocket(url: string) {
  const socket = new WebSocket(url);
  await new Promise((resolve) => socket.once("open", resolve));
  const messages: Message[] = [];
  const waiting: Array<() => void> = [];
  socket.on("message", (data) => {
    messages.push(JSON.parse(websocketText(data)) as Message);
    for (const wake of waiting.splice(0)) wake();
  });
  const arrived = async (matches: (m: Message) => boolean): Promise<Message> => {
    for (;;) {
      const found = messages.find(matches);
      if (found) return found;
      await new Promise<void>((wake) => waiting.push(wake));
    }
  };
  let next = 0;
  const call = async (method: string, params: Record<string, unknown> = {}): Promise<Message> => {
    const id = `call-${next++}`;
    socket.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    return arrived((m) => m.id === id);
  };
  return { socket, messages, arrived, call };
}
