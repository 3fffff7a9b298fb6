// Generated from src/tables/schemas/amino-transforms.schema.json by scripts/writeTableTypes.ts (npm run table-types): do not edit.

export type AminoName = string;
export type TypeName = string;
/**
 * @minItems 1
 */
export type Fields = [string, ...string[]];
/**
 * Fields written as null when empty (a nil Go slice or pointer without omitempty).
 *
 * @minItems 1
 */
export type Fields1 = [string, ...string[]];
/**
 * Fields never written.
 *
 * @minItems 1
 */
export type Fields2 = [string, ...string[]];
/**
 * bytes fields written as uppercase hex (HexBytes) instead of base64.
 *
 * @minItems 1
 */
export type Fields3 = [string, ...string[]];
/**
 * enum fields written as their number (int32).
 *
 * @minItems 1
 */
export type Fields4 = [string, ...string[]];
/**
 * 64-bit integer fields written as JSON numbers (types with their own MarshalJSON).
 *
 * @minItems 1
 */
export type Fields5 = [string, ...string[]];
/**
 * Message fields whose own fields are written in place of the field.
 *
 * @minItems 1
 */
export type Fields6 = [string, ...string[]];

export interface AminoTransformsTable {
  /**
   * Protobuf full type name -> amino name ({type, value} wrapping).
   */
  names?: {
    [k: string]: AminoName;
  };
  /**
   * Public-key types whose amino form is the key bytes themselves (base64 in JSON, the bare bytes after the prefix in binary), not a struct of their fields.
   */
  raw_keys?: TypeName[];
  /**
   * Further amino names accepted on input (e.g. the tendermint/ key types that third-party clients write) -> protobuf full type name.
   */
  input_aliases?: {
    [k: string]: TypeName;
  };
  /**
   * Protobuf full type name -> how its fields are written in amino JSON.
   */
  types?: {
    [k: string]: Rules;
  };
}
export interface Rules {
  /**
   * Fields written even when empty (json tags without omitempty); "*" for every field.
   */
  keep?: Fields | "*";
  nulls?: Fields1;
  drop?: Fields2;
  /**
   * Field -> JSON key.
   */
  rename?: {
    [k: string]: string;
  };
  hex?: Fields3;
  ints?: Fields4;
  numbers?: Fields5;
  flatten?: Fields6;
  /**
   * JSON key -> value written whatever the state holds (types with their own MarshalJSON).
   */
  fixed?: {
    [k: string]: unknown;
  };
  /**
   * A conversion with its own rules: std-tx writes a protobuf Tx as the StdTx it was converted from.
   */
  as?: "std-tx";
}
