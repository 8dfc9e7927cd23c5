/**
 * The API surface an installed SDK client knows beyond the published document.
 *
 * `@turnkey/http` ships its client's OpenAPI types (`public_api.types.d.ts`, written by
 * openapi-typescript from a newer API document than any published one): `paths`, `operations`
 * and `definitions` interfaces. This reads them with the TypeScript compiler and gives them
 * back in the Swagger 2.0 shape the contract model reads (names, types, enums and required
 * flags; no prose), so that the operations an SDK calls and no document lists yet are
 * generated like every other one.
 *
 * `supplementDocument(doc, sdk)` only adds: definitions the document lacks, properties an
 * object of the document lacks (optional), enum values an enum lacks, and paths. Whatever the
 * document says stays as it says it.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import ts from "typescript";

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Where `@turnkey/http` keeps its generated client types, resolved from this repository. */
export function sdkDeclarationsPath(): string {
  // The package exports no subpaths: find its folder from its main entry (dist/index.js).
  const main = createRequire(import.meta.url).resolve("@turnkey/http");
  return join(dirname(main), "__generated__/services/coordinator/public/v1/public_api.types.d.ts");
}

/** The SDK's declarations as a Swagger 2.0 fragment: `{ sdkVersion, paths, definitions }`. */
export function readSdkDeclarations(path = sdkDeclarationsPath()): { paths: Record<string, Json>; definitions: Record<string, Json> } {
  const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.ES2022, true);
  // `export type paths = { ... }` (openapi-typescript 6) or `export interface paths { ... }`.
  const interfaces = new Map<string, { members: ts.NodeArray<ts.TypeElement> }>();
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node)) interfaces.set(node.name.text, node);
    else if (ts.isTypeAliasDeclaration(node) && ts.isTypeLiteralNode(node.type)) interfaces.set(node.name.text, node.type);
  });
  const definitions: Record<string, Json> = {};
  for (const member of interfaces.get("definitions")?.members ?? []) {
    if (ts.isPropertySignature(member) && member.type) definitions[nameOf(member.name)] = schemaOf(member.type);
  }
  const operations = new Map<string, { request?: string; response?: string }>();
  for (const member of interfaces.get("operations")?.members ?? []) {
    if (!ts.isPropertySignature(member) || !member.type) continue;
    operations.set(nameOf(member.name), {
      request: refAt(member.type, ["parameters", "body", "body"]),
      response: refAt(member.type, ["responses", "200", "schema"]),
    });
  }
  const paths: Record<string, Json> = {};
  for (const member of interfaces.get("paths")?.members ?? []) {
    if (!ts.isPropertySignature(member) || !member.type || !ts.isTypeLiteralNode(member.type)) continue;
    const post = member.type.members.find((m) => ts.isPropertySignature(m) && nameOf(m.name) === "post") as ts.PropertySignature | undefined;
    const opName = post?.type && ts.isIndexedAccessTypeNode(post.type) ? literalOf(post.type.indexType) : undefined;
    const op = opName ? operations.get(opName) : undefined;
    if (!op?.request || !op.response) continue;
    paths[nameOf(member.name)] = {
      post: {
        parameters: [{ in: "body", name: "body", required: true, schema: { $ref: `#/definitions/${op.request}` } }],
        responses: { "200": { schema: { $ref: `#/definitions/${op.response}` } } },
      },
    };
  }
  return { paths, definitions };
}

/** The document with what the SDK knows beyond it added (see the header); the document itself is not changed. */
export function supplementDocument(doc: Json, sdk: { paths: Record<string, Json>; definitions: Record<string, Json> }): { document: Json; added: { paths: string[]; definitions: string[] } } {
  const document = structuredClone(doc);
  const added = { paths: [] as string[], definitions: [] as string[] };
  for (const [name, schema] of Object.entries(sdk.definitions)) {
    const mine = document.definitions[name];
    if (!mine) {
      document.definitions[name] = schema;
      added.definitions.push(name);
    } else if (Array.isArray(mine.enum) && Array.isArray(schema.enum)) {
      for (const v of schema.enum) if (!mine.enum.includes(v)) mine.enum.push(v);
    } else if (mine.properties && schema.properties) {
      for (const [k, v] of Object.entries(schema.properties)) if (!(k in mine.properties)) mine.properties[k] = v;
    }
  }
  for (const [path, item] of Object.entries(sdk.paths)) {
    if (document.paths[path]) continue;
    document.paths[path] = item;
    added.paths.push(path);
  }
  return { document, added };
}

function nameOf(name: ts.PropertyName): string {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  throw new Error(`unexpected property name ${name.getText()}`);
}

function literalOf(node: ts.TypeNode): string | undefined {
  return ts.isLiteralTypeNode(node) && (ts.isStringLiteral(node.literal) || ts.isNumericLiteral(node.literal)) ? node.literal.text : undefined;
}

/** The `definitions["X"]` name reached by following these property names through nested type literals. */
function refAt(type: ts.TypeNode, names: string[]): string | undefined {
  let node: ts.TypeNode | undefined = type;
  for (const name of names) {
    if (!node || !ts.isTypeLiteralNode(node)) return undefined;
    const member = node.members.find((m) => ts.isPropertySignature(m) && nameOf(m.name) === name) as ts.PropertySignature | undefined;
    node = member?.type;
  }
  return node && ts.isIndexedAccessTypeNode(node) ? literalOf(node.indexType) : undefined;
}

/** A TypeScript type of openapi-typescript's output as a Swagger 2.0 schema. */
function schemaOf(type: ts.TypeNode): Json {
  if (ts.isParenthesizedTypeNode(type)) return schemaOf(type.type);
  switch (type.kind) {
    case ts.SyntaxKind.StringKeyword:
      return { type: "string" };
    case ts.SyntaxKind.NumberKeyword:
      return { type: "number" };
    case ts.SyntaxKind.BooleanKeyword:
      return { type: "boolean" };
    case ts.SyntaxKind.UnknownKeyword:
    case ts.SyntaxKind.AnyKeyword:
      return {};
  }
  if (ts.isIndexedAccessTypeNode(type)) {
    const name = literalOf(type.indexType);
    if (!name) throw new Error(`unexpected indexed type ${type.getText()}`);
    return { $ref: `#/definitions/${name}` };
  }
  if (ts.isArrayTypeNode(type)) return { type: "array", items: schemaOf(type.elementType) };
  const values = stringLiterals(type);
  if (values) return { type: "string", enum: values };
  if (ts.isUnionTypeNode(type)) {
    // `T | null` and the like: the non-literal member carries the shape.
    const rest = type.types.filter((t) => !(ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword));
    if (rest.length === 1) return schemaOf(rest[0]!);
    return {};
  }
  if (ts.isIntersectionTypeNode(type)) {
    // `{ "@type"?: string } & { [key: string]: unknown }` (protobuf Any): the members of each part together.
    const parts = type.types.map(schemaOf);
    if (!parts.every((p: Json) => p.type === "object")) return {};
    const properties = Object.assign({}, ...parts.map((p: Json) => p.properties ?? {}));
    const required = parts.flatMap((p: Json) => p.required ?? []);
    const additional = parts.map((p: Json) => p.additionalProperties).find((a: Json) => a !== undefined);
    return { type: "object", properties, ...(required.length ? { required } : {}), ...(additional !== undefined ? { additionalProperties: additional } : {}) };
  }
  if (ts.isTypeLiteralNode(type)) {
    const properties: Record<string, Json> = {};
    const required: string[] = [];
    let additionalProperties: Json;
    for (const member of type.members) {
      if (ts.isPropertySignature(member) && member.type) {
        const name = nameOf(member.name);
        properties[name] = schemaOf(member.type);
        if (!member.questionToken) required.push(name);
      } else if (ts.isIndexSignatureDeclaration(member)) {
        additionalProperties = member.type.kind === ts.SyntaxKind.UnknownKeyword || member.type.kind === ts.SyntaxKind.AnyKeyword ? true : schemaOf(member.type);
      }
    }
    return { type: "object", properties, ...(required.length ? { required } : {}), ...(additionalProperties !== undefined ? { additionalProperties } : {}) };
  }
  if (ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && type.typeName.text === "Record") return { type: "object", additionalProperties: true };
  throw new Error(`unexpected type ${type.getText()}`);
}

/** The values of a string literal type or a union of them; undefined for anything else. */
function stringLiterals(type: ts.TypeNode): string[] | undefined {
  const members = ts.isUnionTypeNode(type) ? type.types : [type];
  const values: string[] = [];
  for (const t of members) {
    if (!ts.isLiteralTypeNode(t) || !ts.isStringLiteral(t.literal)) return undefined;
    values.push(t.literal.text);
  }
  return values;
}
