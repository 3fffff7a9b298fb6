import { moduleAddressBytes } from "../../../codec/addresses.js";
import { utf8 } from "../../store/moduleStore.js";
import { MODULE_PARAMS_KEY } from "../shared/paramsKey.js";

/**
 * Store layout:
 *   "standardDenom" → StringValue(standard denom)   (the real keeper's key)
 *   Params: MODULE_PARAMS_KEY (the real v1.3.1 kept them in the x/params subspace "coinswap")
 * A pool has no state here: its reserves are the bank balances of the reserve account derived
 * from the liquidity denom "swap/<denom>", and its liquidity is the bank supply of that denom.
 */
export const STANDARD_DENOM_KEY = utf8("standardDenom");
export const PARAMS_KEY = MODULE_PARAMS_KEY;
export const PARAMS_TYPE = "extmod.coinswap.Params";

/** The prefix of liquidity (pool) denoms in v1.3.1 (the lpt-<n> pools came with v1.5.0). */
export const LIQUIDITY_DENOM_PREFIX = "swap/";
export const liquidityDenomOf = (tokenDenom: string) => `${LIQUIDITY_DENOM_PREFIX}${tokenDenom}`;

/** GetReservePoolAddr: the first 20 bytes of SHA-256 of the liquidity denom (tendermint crypto.AddressHash); a plain account. */
export const reservePoolAddressBytes = (liquidityDenom: string) => moduleAddressBytes(liquidityDenom);
