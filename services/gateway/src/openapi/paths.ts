import { parse, type Token } from "path-to-regexp";

/** One OpenAPI path an express path stands for. */
export interface OpenApiPath {
  /** `/projects/{id}/repository/tags/{tag_name}` */
  path: string;
  /** The path parameters in order, and whether each is a `*wildcard` (may span slashes). */
  params: { name: string; wildcard: boolean }[];
}

/**
 * The OpenAPI paths an express 5 path stands for, parsed with express's own path-to-regexp:
 * `:id` and `*tag_name` become `{id}` and `{tag_name}`; an optional group (`/archive{.:format}`)
 * has no OpenAPI equivalent, so it gives one path without it and one with it.
 */
export function openApiPaths(expressPath: string): OpenApiPath[] {
  return variants(parse(expressPath).tokens).map((tokens) => ({
    path: tokens.map((t) => (t.type === "text" ? t.value : `{${t.name}}`)).join(""),
    params: tokens.flatMap((t) => (t.type === "text" ? [] : [{ name: t.name, wildcard: t.type === "wildcard" }])),
  }));
}

type Flat = Exclude<Token, { type: "group" }>;

/** Every sequence of tokens an optional group allows: without the group first, then with it. */
function variants(tokens: readonly Token[]): Flat[][] {
  let out: Flat[][] = [[]];
  for (const token of tokens) {
    if (token.type === "group") {
      const inner = variants(token.tokens);
      out = out.flatMap((prefix) => [prefix, ...inner.map((v) => [...prefix, ...v])]);
    } else out = out.map((prefix) => [...prefix, token]);
  }
  return out;
}
