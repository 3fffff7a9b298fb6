import { invalidArgument } from "../../../abci/queryError.js";
import { fieldText } from "../../../../codec/fieldText.js";

const VALID_ID = /^[a-zA-Z0-9._+\-#[\]<>]+$/;

/** ICS-24 identifier rules (24-host/validate.go); the Go error text, or undefined when valid. */
function identifierTextError(id: string, min: number, max: number): string | undefined {
  if (id.trim() === "") return "identifier cannot be blank: invalid identifier";
  if (id.includes("/")) return `identifier ${id} cannot contain separator '/': invalid identifier`;
  if (id.length < min || id.length > max)
    return `identifier ${id} has invalid length: ${id.length}, must be between ${min}-${max} characters: invalid identifier`;
  if (!VALID_ID.test(id)) {
    return `identifier ${id} must contain only alphanumeric or the following characters: '.', '_', '+', '-', '#', '[', ']', '<', '>': invalid identifier`;
  }
  return undefined;
}

const LIMITS: Record<string, [number, number]> = { client: [9, 64], connection: [10, 64], channel: [8, 64], port: [2, 64] };
export type IdentifierKind = "client" | "connection" | "channel" | "port";

/** The Go error text of an identifier of this kind, or undefined when it is valid. */
export function identifierError(id: string, kind: IdentifierKind): string | undefined {
  return identifierTextError(id, ...LIMITS[kind]!);
}

/** A request's identifier; a bad one is InvalidArgument with the real message. */
export function identifierParam(kind: IdentifierKind, value: unknown): string {
  const id = fieldText(value);
  const error = identifierTextError(id, ...LIMITS[kind]!);
  if (error) throw invalidArgument(error);
  return id;
}

/** A genesis identifier; a bad one throws naming the field. */
export function checkIdentifier(kind: IdentifierKind, value: unknown, field: string): string {
  const id = fieldText(value);
  const error = identifierTextError(id, ...LIMITS[kind]!);
  if (error) throw new Error(`${field}: ${error}`);
  return id;
}
