import { concatBytes, uint64Bytes } from "../../store/keyEncoding.js";
import { utf8 } from "../../store/moduleStore.js";

/**
 * Key layout of the oracle store (irismod v1.3.1 oracle/types/keys.go):
 *
 *   0x01 "/" feed name                      → Feed
 *   0x02 "/" request context id (40 bytes)  → StringValue(feed name)
 *   0x03 feed name "/" batch counter (8)    → FeedValue
 *   0x04 "/" feed name                      → StringValue(feed name)   running feeds
 *   0x05 "/" feed name                      → StringValue(feed name)   every other state
 */
const SLASH = utf8("/");

export const FEEDS_PREFIX = concatBytes(Uint8Array.of(0x01), SLASH);
export const feedKey = (name: string) => concatBytes(FEEDS_PREFIX, utf8(name));
export const feedByContextKey = (contextId: Uint8Array) => concatBytes(Uint8Array.of(0x02), SLASH, contextId);
export const feedValuesPrefix = (name: string) => concatBytes(Uint8Array.of(0x03), utf8(name), SLASH);
export const feedValueKey = (name: string, batchCounter: number) => concatBytes(feedValuesPrefix(name), uint64Bytes(batchCounter));

/** RequestContextState RUNNING = 0; GetFeedStatePrefixKey files every other state under the paused prefix. */
export const feedStatePrefix = (state: number) => Uint8Array.of(state === 0 ? 0x04 : 0x05);
export const feedStateKey = (name: string, state: number) => concatBytes(feedStatePrefix(state), SLASH, utf8(name));
