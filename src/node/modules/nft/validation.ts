/**
 * The nft module's identifier rules and messages (irismod types/validation.go):
 * denom and token ids are 3-64 lowercase letters and digits starting with a
 * letter; a token URI is at most 256 characters.
 */
const MIN_ID_LENGTH = 3;
const MAX_ID_LENGTH = 64;
const MAX_TOKEN_URI_LENGTH = 256;
const ALPHANUMERIC = /^[a-z0-9]+$/;
const BEGINS_WITH_LETTER = /^[a-z]/;

export function denomIdError(denomId: string): string | undefined {
  if (denomId.length < MIN_ID_LENGTH || denomId.length > MAX_ID_LENGTH) {
    return `the length of denom(${denomId}) only accepts value [${MIN_ID_LENGTH}, ${MAX_ID_LENGTH}]: invalid denom`;
  }
  if (!BEGINS_WITH_LETTER.test(denomId) || !ALPHANUMERIC.test(denomId)) {
    return `the denom(${denomId}) only accepts alphanumeric characters, and begin with an english letter: invalid denom`;
  }
  return undefined;
}

export function tokenIdError(tokenId: string): string | undefined {
  if (tokenId.length < MIN_ID_LENGTH || tokenId.length > MAX_ID_LENGTH) {
    return `the length of nft id(${tokenId}) only accepts value [${MIN_ID_LENGTH}, ${MAX_ID_LENGTH}]: invalid nft id`;
  }
  if (!BEGINS_WITH_LETTER.test(tokenId) || !ALPHANUMERIC.test(tokenId)) {
    return `nft id(${tokenId}) only accepts alphanumeric characters, and begin with an english letter: invalid nft id`;
  }
  return undefined;
}

export function tokenUriError(uri: string): string | undefined {
  if (uri.length > MAX_TOKEN_URI_LENGTH) return `the length of nft uri(${uri}) only accepts value [0, ${MAX_TOKEN_URI_LENGTH}]: invalid nft uri`;
  return undefined;
}
