import { calculateExistenceRoot, ics23, verifyMembership, verifyNonMembership } from "@confio/ics23";
import { commitmentError } from "../host/coreErrors.js";

/**
 * 23-commitment MerkleProof.VerifyMembership / VerifyNonMembership of SDK v0.41 (ibc-go's first
 * commit): a chain of ICS-23 proofs, lowest store (IAVL) first, each proving that the subroot
 * computed below it is stored under its key, the last subroot being the consensus state's root.
 * The keys come from the MerklePath, highest first (["ibc", "<host path>"]). The hashing is the
 * `@confio/ics23` library's; the errors are the SDK's texts. The empty-proof/root/spec-count
 * checks (validateVerificationArgs) are made by the caller before.
 */
/** The library's message classes, for proofVerification.ts, which loads this file (and so the library) lazily. */
export { ics23 };

export interface MerkleCheck {
  specs: ics23.IProofSpec[];
  proofs: ics23.ICommitmentProof[];
  root: Uint8Array;
  keyPath: string[];
}

export function verifyMerkleMembership(check: MerkleCheck, value: Uint8Array): void {
  checkPathLength(check);
  if (value.length === 0) throw commitmentError("invalidProof", "empty value in membership proof");
  verifyChained(check, value, 0);
}

export function verifyMerkleNonMembership(check: MerkleCheck): void {
  checkPathLength(check);
  const lowest = check.proofs[0]!;
  if (lowest.exist) {
    throw commitmentError(
      "invalidProof",
      "got ExistenceProof in VerifyNonMembership. If this is unexpected, please ensure that proof was queried with the correct key.",
    );
  }
  if (!lowest.nonexist) throw commitmentError("invalidProof", `expected proof type: *ics23.CommitmentProof_Exist, got: ${proofTypeName(lowest)}`);
  let subroot: Uint8Array;
  try {
    const neighbour = lowest.nonexist.left ?? lowest.nonexist.right;
    if (!neighbour) throw new Error("Nonexistence proof has empty Left and Right proof");
    subroot = calculateExistenceRoot(neighbour);
  } catch (err) {
    throw commitmentError("invalidProof", `could not calculate root for proof index 0, merkle tree is likely empty. ${(err as Error).message}`);
  }
  const key = utf8(check.keyPath[check.keyPath.length - 1]!);
  if (!verifyNonMembership(lowest, check.specs[0]!, subroot, key)) {
    throw commitmentError("invalidProof", `could not verify absence of key ${Buffer.from(key).toString()}. Please ensure that the path is correct.`);
  }
  verifyChained(check, subroot, 1);
}

function checkPathLength(check: MerkleCheck): void {
  if (check.keyPath.length !== check.specs.length) {
    throw commitmentError("invalidProof", `path length ${check.keyPath.length} not same as proof ${check.specs.length}`);
  }
}

/** verifyChainedMembershipProof: from `index` up, each existence proof commits to the value below it; the top must be the root. */
function verifyChained(check: MerkleCheck, lowestValue: Uint8Array, index: number): void {
  let value = lowestValue;
  let subroot = lowestValue;
  for (let i = index; i < check.proofs.length; i++) {
    const proof = check.proofs[i]!;
    if (proof.nonexist) {
      throw commitmentError(
        "invalidProof",
        `chained membership proof contains nonexistence proof at index ${i}. If this is unexpected, please ensure that proof was queried from a height that contained the value in store and was queried with the correct key. The key used: ${pathText(check.keyPath)}`,
      );
    }
    if (!proof.exist) throw commitmentError("invalidProof", `expected proof type: *ics23.CommitmentProof_Exist, got: ${proofTypeName(proof)}`);
    try {
      subroot = calculateExistenceRoot(proof.exist);
    } catch (err) {
      throw commitmentError("invalidProof", `could not calculate proof root at index ${i}, merkle tree may be empty. ${(err as Error).message}`);
    }
    const key = utf8(check.keyPath[check.keyPath.length - 1 - i]!);
    if (!verifyMembership(proof, check.specs[i]!, subroot, key, value)) {
      throw commitmentError(
        "invalidProof",
        `chained membership proof failed to verify membership of value: ${hex(value)} in subroot ${hex(subroot)} at index ${i}. Please ensure the path and value are both correct.`,
      );
    }
    value = subroot;
  }
  if (!Buffer.from(check.root).equals(Buffer.from(subroot))) {
    throw commitmentError(
      "invalidProof",
      `proof did not commit to expected root: ${hex(check.root)}, got: ${hex(subroot)}. Please ensure proof was submitted with correct proofHeight and to the correct chain.`,
    );
  }
}

/** Go's %X of a byte slice. */
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex").toUpperCase();
const utf8 = (text: string) => new TextEncoder().encode(text);
/** MerklePath.String(): each key path-escaped, each preceded by "/". */
const pathText = (keyPath: string[]) => keyPath.map((key) => `/${encodeURIComponent(key)}`).join("");
/** %T of the oneof a CommitmentProof holds (batch or compressed proofs are not unpacked by the SDK either). */
function proofTypeName(proof: ics23.ICommitmentProof): string {
  if (proof.batch) return "*ics23.CommitmentProof_Batch";
  if (proof.compressed) return "*ics23.CommitmentProof_Compressed";
  return "<nil>";
}
