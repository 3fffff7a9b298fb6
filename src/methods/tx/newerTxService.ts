import Long from "long";
import type { Codec } from "../../codec/codec.js";
import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import { fieldText } from "../../codec/fieldText.js";
import { AminoBinaryCodec, AminoBinaryError } from "../../codec/amino/aminoBinary.js";
import { AminoJsonRenderer, goJson, NoAminoEncodingError } from "../../codec/amino/aminoJson.js";
import { AminoJsonError, AminoJsonParser } from "../../codec/amino/aminoJsonParser.js";
import { aminoStdTxFromTx, parseStdTx, StdTxConversionError, stdTxFromTx, stdTxToTxRaw, txFromAminoStdTx, txFromTxRaw } from "../../codec/amino/stdTx.js";
import { NodeRpcError } from "../../client/chainClient.js";
import type { RpcBlockResult } from "../../client/rpcJsonTypes.js";
import { GatewayError, GrpcCode } from "../../http/grpcStatus.js";
import { aminoTransforms } from "../../tables/aminoTransforms.js";
import { blockResponse } from "../consensus/blockMessages.js";
import { base64Bytes } from "../rpcJson.js";
import type { ServiceMethod } from "../serviceMethod.js";

const TX = "/core.tx.v1beta1.Service";
/** v0.45's DefaultLimit: a page of a block's txs when the request names no limit. */
const DEFAULT_LIMIT = 100n;

interface AminoCodecs {
  renderer: AminoJsonRenderer;
  parser: AminoJsonParser;
  binary: AminoBinaryCodec;
}

/** The amino codecs of a proto tree, made on first use: one per tree (one per naming profile). */
const aminoOf = new WeakMap<Codec, AminoCodecs>();

function amino(codec: Codec): AminoCodecs {
  let found = aminoOf.get(codec);
  if (!found) {
    const transforms = aminoTransforms();
    found = {
      renderer: new AminoJsonRenderer(codec.root, transforms),
      parser: new AminoJsonParser(codec.root, transforms),
      binary: new AminoBinaryCodec(codec.root, transforms),
    };
    aminoOf.set(codec, found);
  }
  return found;
}

const invalid = (message: string) => new GatewayError(GrpcCode.InvalidArgument, message);

/** A codec failure on client bytes or JSON is the request's fault: 400 with what was wrong. */
function clientFault(err: unknown): unknown {
  if (err instanceof AminoBinaryError || err instanceof AminoJsonError || err instanceof StdTxConversionError || err instanceof NoAminoEncodingError) {
    return invalid(err.message);
  }
  if (err instanceof Error && /index out of range|invalid wire type|illegal/i.test(err.message)) return invalid(`invalid transaction bytes: ${err.message}`);
  return err;
}

function decodeTxRaw(codec: Codec, bytes: Uint8Array): ProtoMessage {
  try {
    return txFromTxRaw(codec.root, bytes);
  } catch (err) {
    throw clientFault(err);
  }
}

/** TxRaw of Tx values: the body and auth info encoded as they are, then the signatures. */
function encodeTx(codec: Codec, tx: ProtoMessage): Uint8Array {
  const TxBody = codec.type("core.tx.v1beta1.TxBody");
  const AuthInfo = codec.type("core.tx.v1beta1.AuthInfo");
  return codec
    .type("core.tx.v1beta1.TxRaw")
    .encode({
      body_bytes: TxBody.encode(TxBody.fromObject(tx.body ?? {})).finish(),
      auth_info_bytes: AuthInfo.encode(AuthInfo.fromObject(tx.auth_info ?? {})).finish(),
      signatures: tx.signatures ?? [],
    })
    .finish();
}

/**
 * core.tx.v1beta1.Service methods newer SDKs added, from the node's RPC
 * (a v0.41 node's `block`) and the codec alone.
 */
export const newerTxService: Record<string, ServiceMethod> = {
  [`${TX}/GetBlockWithTxs`]: async (request, context) => {
    const height = BigInt(fieldText(request.height, "0"));
    const status = await context.client.status();
    const latest = BigInt(fieldText(status.sync_info.latest_block_height, "0"));
    if (height < 1n || height > latest)
      throw invalid(`requested height ${height} but height must not be less than 1 or greater than the current height ${latest}`);
    let result: RpcBlockResult;
    try {
      result = await context.client.block(Number(height));
    } catch (err) {
      if (err instanceof NodeRpcError) throw invalid(err.data ?? err.message);
      throw err;
    }
    const all = (result.block?.data?.txs ?? []).map(base64Bytes);
    const page = (request.pagination ?? {}) as ProtoMessage;
    const offset = BigInt(fieldText(page.offset, "0"));
    const limit = BigInt(fieldText(page.limit, "0")) || DEFAULT_LIMIT;
    const total = BigInt(all.length);
    if (offset >= total && total !== 0n) throw invalid(`out of range: cannot paginate ${total} txs with offset ${offset} and limit ${limit}`);
    const end = offset + limit < total ? offset + limit : total;
    // reverse (v0.43's PageRequest.reverse): the same window counted from the last tx
    const picked = page.reverse ? all.slice(Number(total - end), Number(total - offset)).reverse() : all.slice(Number(offset), Number(end));
    return {
      response: {
        txs: picked.map((bytes) => decodeTxRaw(context.codec, bytes)),
        ...blockResponse(result),
        pagination: { total: Long.fromString(total.toString(), true) },
      },
      height: Number(height),
    };
  },

  [`${TX}/TxDecode`]: async (request, context) => {
    const bytes = request.tx_bytes as Uint8Array | undefined;
    if (!bytes?.length) throw invalid("invalid empty tx bytes");
    return { response: { tx: decodeTxRaw(context.codec, bytes) } };
  },

  [`${TX}/TxEncode`]: async (request, context) => {
    if (!request.tx) throw invalid("invalid empty tx");
    return { response: { tx_bytes: encodeTx(context.codec, request.tx as ProtoMessage) } };
  },

  [`${TX}/TxDecodeAmino`]: async (request, context) => {
    const bytes = request.amino_binary as Uint8Array | undefined;
    if (!bytes?.length) throw invalid("invalid empty tx bytes");
    const codecs = amino(context.codec);
    try {
      const tx = txFromAminoStdTx(codecs.binary, context.codec.root, bytes);
      const stdTx = stdTxFromTx(codecs.renderer, tx);
      return { response: { amino_json: goJson({ type: codecs.renderer.aminoName("core.tx.v1beta1.Tx"), value: stdTx }) } };
    } catch (err) {
      throw clientFault(err);
    }
  },

  [`${TX}/TxEncodeAmino`]: async (request, context) => {
    const text = fieldText(request.amino_json);
    if (!text) throw invalid("invalid empty tx json");
    const codecs = amino(context.codec);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw invalid(`amino_json: ${(err as Error).message}`);
    }
    const name = codecs.renderer.aminoName("core.tx.v1beta1.Tx");
    const wrapped = json as { type?: unknown; value?: unknown } | null;
    if (!wrapped || typeof wrapped !== "object" || wrapped.type !== name) throw invalid(`amino_json: expected {"type":"${name}","value":{…}}`);
    try {
      const input = parseStdTx(codecs.parser, wrapped.value, "amino_json.value");
      // an amino StdTx carries no sequences: the TxRaw in between is only a carrier
      const tx = txFromTxRaw(
        context.codec.root,
        stdTxToTxRaw(
          context.codec.root,
          input,
          input.signatures.map(() => Long.UZERO),
        ),
      );
      return { response: { amino_binary: aminoStdTxFromTx(codecs.binary, context.codec.root, tx) } };
    } catch (err) {
      throw clientFault(err);
    }
  },
};
