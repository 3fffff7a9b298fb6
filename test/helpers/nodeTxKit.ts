import type { EncodeObject } from "@cosmjs/proto-signing";
import { bech32Prefixes, moduleAddress } from "../../src/codec/addresses.js";
import { decodeBech32Address, encodeBech32Address } from "../../src/codec/bech32.js";
import type { JsonValue } from "../../src/codec/json/renderProto3.js";
import type { EmbeddedNode } from "../../src/node/embeddedNode.js";
import type { RpcEvent, RpcTxResult } from "../../src/node/chain/blockStore.js";
import { openDevNode, TEST_MNEMONIC } from "./devNode.js";
import { directTx, testSigner, type TestSigner } from "./txSigner.js";

/** An event with its attributes decoded. */
export interface Event {
  type: string;
  attributes: Array<{ key: string; value: string }>;
}

export interface Delivered {
  /** CheckTx's code (0: the tx went into a block). */
  checkCode: number;
  checkLog: string;
  code: number;
  codespace: string;
  log: string;
  /** All the tx's events (the ante handler's first), as DeliverTx reports them. */
  events: Event[];
  /** The message's events as its log shows them (merged by type), when it succeeded. */
  logEvents: Event[];
  /** The block the tx was in (0 when CheckTx refused it). */
  height: number;
  /** begin and end block events of that block. */
  beginEvents: Event[];
  endEvents: Event[];
}

const text = (b64: string) => Buffer.from(b64, "base64").toString();
export const decodeEvents = (events: RpcEvent[] | null | undefined): Event[] =>
  (events ?? []).map((e) => ({ type: e.type, attributes: e.attributes.map((a) => ({ key: text(a.key), value: text(a.value) })) }));

/** The attribute values of every event of a type, in order. */
export function attributesOf(events: Event[], type: string): Array<Record<string, string>> {
  return events.filter((e) => e.type === type).map((e) => Object.fromEntries(e.attributes.map((a) => [a.key, a.value])));
}

export const FEE = 2000n;

/**
 * An in-process development node with cosmjs signers for its accounts, to
 * run Msgs in blocks and read the state back as the gateway renders it.
 */
export class NodeTxKit {
  private readonly sequences = new Map<number, number>();

  private constructor(
    readonly node: EmbeddedNode,
    readonly addresses: string[],
    readonly signers: TestSigner[],
  ) {}

  static async open(accounts = 6): Promise<NodeTxKit> {
    const { node, addresses } = await openDevNode({ accounts });
    const signers = await Promise.all(addresses.map((_, i) => testSigner(TEST_MNEMONIC, i)));
    return new NodeTxKit(node, addresses, signers);
  }

  close(): Promise<void> {
    return this.node.close();
  }

  /** The operator address of dev account i. */
  valoper(index: number): string {
    return encodeBech32Address(bech32Prefixes("hub").validatorOperator, decodeBech32Address(this.addresses[index]!, "hub", "address"));
  }

  moduleAccount(name: string): string {
    return moduleAddress("hub", name);
  }

  /** Signs the messages as dev account `index` (its account number is its index), checks and, when accepted, executes them in a block. */
  async deliver(index: number, messages: EncodeObject[], options: { gas?: number; time?: Date } = {}): Promise<Delivered> {
    const sequence = this.sequences.get(index) ?? 0;
    const bytes = await directTx(this.signers[index]!, { messages, sequence, accountNumber: index, gas: options.gas ?? 400_000 });
    const checked = await this.node.checkTx(bytes);
    if (checked.outcome.code !== 0) {
      return {
        checkCode: checked.outcome.code,
        checkLog: checked.outcome.log,
        code: checked.outcome.code,
        codespace: checked.outcome.codespace,
        log: checked.outcome.log,
        events: [],
        logEvents: [],
        height: 0,
        beginEvents: [],
        endEvents: [],
      };
    }
    this.sequences.set(index, sequence + 1);
    const block = await this.node.produceBlock(options.time);
    const result: RpcTxResult = block.results.txs_results![0]!;
    return {
      checkCode: 0,
      checkLog: checked.outcome.log,
      code: result.code ?? 0,
      codespace: result.codespace ?? "",
      log: result.log ?? "",
      events: decodeEvents(result.events),
      logEvents: result.code ? [] : ((JSON.parse(result.log ?? "[]") as Array<{ events: Event[] }>)[0]?.events ?? []),
      height: Number(block.block.block.header.height),
      beginEvents: decodeEvents(block.results.begin_block_events),
      endEvents: decodeEvents(block.results.end_block_events),
    };
  }

  /** An empty block, optionally at a given time. */
  async block(time?: Date): Promise<{ height: number; time: Date; beginEvents: Event[]; endEvents: Event[] }> {
    const block = await this.node.produceBlock(time);
    return {
      height: Number(block.block.block.header.height),
      time: new Date(block.block.block.header.time),
      beginEvents: decodeEvents(block.results.begin_block_events),
      endEvents: decodeEvents(block.results.end_block_events),
    };
  }

  /** A query answer in the gateway's JSON, or the error's code and log. */
  async query(method: string, request: Record<string, unknown> = {}, height = 0): Promise<{ code: number; log: string; body: Record<string, JsonValue> }> {
    const [service, name] = [method.slice(0, method.lastIndexOf(".")), method.slice(method.lastIndexOf(".") + 1)];
    const codec = this.node.codec;
    const serviceType = codec.root.lookupService(service);
    const rpc = serviceType.methods[name]!;
    const requestType = codec.type(rpc.resolvedRequestType!.fullName.slice(1));
    const responseType = codec.type(rpc.resolvedResponseType!.fullName.slice(1));
    const answer = await this.node.query(`/${service}/${name}`, requestType.encode(requestType.fromObject(request)).finish(), height);
    if (answer.code !== 0) return { code: answer.code, log: answer.log, body: {} };
    return { code: 0, log: "", body: codec.renderer.render(responseType, responseType.decode(answer.value)) };
  }

  /** The uhub balance of an address (at a height, default latest). */
  async balance(address: string, height = 0): Promise<bigint> {
    const r = await this.query("core.bank.v1beta1.Query.Balance", { address, denom: "uhub" }, height);
    return BigInt(String((r.body.balance as { amount: string }).amount));
  }

  get height(): number {
    return this.node.height;
  }
}
